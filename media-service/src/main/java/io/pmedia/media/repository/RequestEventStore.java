package io.pmedia.media.repository;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.smallrye.mutiny.Uni;

/** The timeline of realtime requests (media_request_event), in the caller's session and transaction. */
@ApplicationScoped
public class RequestEventStore {

    /** At most this many events of one request are shown (a request has a handful; a loop would not flood). */
    public static final int MAX_EVENTS = 200;

    /** One moment of a request's life. */
    public record RequestEvent(String at, String kind, String status, String message) {
    }

    private static final String RECORD = """
            INSERT INTO media_request_event (request_id, kind, status, message) VALUES (?1, ?2, ?3, ?4)
            """;

    private static final String OF_REQUEST = """
            SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), kind, status, message
              FROM media_request_event WHERE request_id = ?1 ORDER BY id LIMIT ?2
            """;

    public Uni<Void> record(UUID requestId, String kind, String status, String message) {
        return NativeSql.update(RECORD, requestId, kind, status, message).replaceWithVoid();
    }

    /** The request's events, oldest first (its owner is checked by the caller). */
    public Uni<List<RequestEvent>> of(UUID requestId) {
        return NativeSql.list(Object[].class, OF_REQUEST, requestId, MAX_EVENTS).map(rows -> rows.stream()
                .map(row -> new RequestEvent((String) row[0], (String) row[1], (String) row[2], (String) row[3]))
                .toList());
    }
}
