package io.pmedia.media.repository;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.pmedia.media.RegisteredFont;
import io.smallrye.mutiny.Uni;

/** Registered fonts in PostgreSQL. Every method runs in the caller's reactive session. */
@ApplicationScoped
public class FontStore {

    /** The font of that name, or a null item. */
    public Uni<RegisteredFont> find(String name) {
        return NativeSql.one(RegisteredFont.class, "SELECT * FROM font WHERE name = ?1", name);
    }

    /** Every registered font, by name. */
    public Uni<List<RegisteredFont>> all() {
        return NativeSql.list(RegisteredFont.class, "SELECT * FROM font ORDER BY name");
    }

    /** The names of every registered font. */
    public Uni<List<String>> names() {
        return NativeSql.list(String.class, "SELECT name FROM font ORDER BY name");
    }
}
