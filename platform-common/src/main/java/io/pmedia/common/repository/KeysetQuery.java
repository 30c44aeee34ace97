package io.pmedia.common.repository;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import io.pmedia.common.paging.Keyset;

/**
 * The one statement of the lists a client reads page by page (GET /media/requests, /media/tasks, /campaigns,
 * /vton/requests): the client's rows below the keyset bound, newest first, ties by id, with the list's filters, each
 * of which matches anything when its value is null. Parameters: {@code ?1} the client, {@code ?2 ?3 ?4} the
 * {@link Keyset}, then the filters' values in their order, then the page's fetch size.
 */
public final class KeysetQuery {

    /** Rows of the client ({@code ?1}) below {@code (?2, ?3)}, created at {@code ?4} or later; %s: the filters. */
    private static final String SELECT = """
            SELECT * FROM %s
             WHERE client_id = ?1
               AND (created_at, id) < (CAST(?2 AS timestamptz), CAST(?3 AS uuid))
               AND created_at >= CAST(?4 AS timestamptz)%s
             ORDER BY created_at DESC, id DESC
             LIMIT ?%d
            """;
    /** Table and column names are the stores' own constants, never input; checked all the same. */
    private static final Pattern NAME = Pattern.compile("[a-z_]+");

    /** A filter on {@code column}, its value of the SQL {@code type} ({@code text} or {@code uuid}). */
    public record Filter(String column, String type) {

        public Filter {
            if (!NAME.matcher(column).matches() || !(type.equals("text") || type.equals("uuid"))) {
                throw new IllegalArgumentException("not a list filter: " + column + " " + type);
            }
        }

        public static Filter text(String column) {
            return new Filter(column, "text");
        }

        public static Filter uuid(String column) {
            return new Filter(column, "uuid");
        }
    }

    private KeysetQuery() {
    }

    /** The list statement of {@code table} with {@code filters}. */
    public static String of(String table, Filter... filters) {
        if (!NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("not a table name: " + table);
        }
        StringBuilder where = new StringBuilder();
        int parameter = 5;
        for (Filter filter : filters) {
            where.append("\n   AND (CAST(?%1$d AS %2$s) IS NULL OR %3$s = CAST(?%1$d AS %2$s))"
                    .formatted(parameter++, filter.type(), filter.column()));
        }
        return SELECT.formatted(table, where, parameter);
    }

    /** The statement's parameters: the client, the keyset, the filters' values (null: any), the fetch size. */
    public static Object[] parameters(UUID clientId, Keyset keyset, int limit, Object... filterValues) {
        List<Object> parameters = new ArrayList<>(filterValues.length + 5);
        parameters.add(clientId);
        parameters.add(keyset.time());
        parameters.add(keyset.id());
        parameters.add(keyset.from());
        parameters.addAll(Arrays.asList(filterValues));
        parameters.add(limit);
        return parameters.toArray();
    }
}
