package io.pmedia.engagement.repository;

import java.time.LocalDate;
import java.util.Base64;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.smallrye.mutiny.Uni;

/** The salts of unique-viewer hashes (visitor_salt), one per UTC day, shared by every replica. */
@ApplicationScoped
public class SaltStore {

    private static final String CREATE = """
            INSERT INTO visitor_salt (day, salt) VALUES (?1, ?2) ON CONFLICT (day) DO NOTHING
            """;
    private static final String READ = """
            SELECT encode(salt, 'base64') FROM visitor_salt WHERE day = ?1
            """;

    /**
     * The day's salt: {@code fresh} when this call is the first to need one for the day, else the one stored. In the
     * caller's transaction.
     */
    public Uni<byte[]> salt(LocalDate day, byte[] fresh) {
        return NativeSql.update(CREATE, day, fresh)
                .flatMap(ignored -> NativeSql.one(String.class, READ, day))
                .map(stored -> Base64.getMimeDecoder().decode(stored));
    }
}
