package io.pmedia.common.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.common.paging.Keyset;
import io.pmedia.common.paging.PageRequest;

class KeysetQueryTest {

    @Test
    void theListStatementIsTheOneEachStoreWroteByHand() {
        // batch-service's GET /media/tasks statement as it was written in TaskStore before it was shared.
        String byHand = """
                SELECT * FROM batch_task
                 WHERE client_id = ?1
                   AND (created_at, id) < (CAST(?2 AS timestamptz), CAST(?3 AS uuid))
                   AND created_at >= CAST(?4 AS timestamptz)
                   AND (CAST(?5 AS text) IS NULL OR status = CAST(?5 AS text))
                   AND (CAST(?6 AS text) IS NULL OR campaign_id = CAST(?6 AS text))
                   AND (CAST(?7 AS uuid) IS NULL OR template_id = CAST(?7 AS uuid))
                 ORDER BY created_at DESC, id DESC
                 LIMIT ?8
                """;
        assertThat(KeysetQuery.of("batch_task", KeysetQuery.Filter.text("status"),
                KeysetQuery.Filter.text("campaign_id"), KeysetQuery.Filter.uuid("template_id")))
                .isEqualToIgnoringWhitespace(byHand);
        assertThat(KeysetQuery.of("campaign_schedule", KeysetQuery.Filter.text("status")))
                .contains("AND (CAST(?5 AS text) IS NULL OR status = CAST(?5 AS text))").endsWith("LIMIT ?6\n");
    }

    @Test
    void aFirstPageStartsAtToOrTheEndOfTimeWithTheSmallestIdAndFromTheBeginning() {
        PageRequest first = PageRequest.of(null, null);
        Keyset keyset = first.keyset(null, null);
        assertThat(keyset).isEqualTo(new Keyset(PageRequest.END_OF_TIME, new UUID(0, 0),
                Instant.parse("1970-01-01T00:00:00Z")));
        Instant from = Instant.parse("2026-11-01T00:00:00Z");
        Instant to = Instant.parse("2026-11-30T00:00:00Z");
        assertThat(first.keyset(from, to)).isEqualTo(new Keyset(to, new UUID(0, 0), from));

        UUID client = UUID.randomUUID();
        assertThat(KeysetQuery.parameters(client, keyset, 21, "FAILED", null))
                .containsExactly(client, keyset.time(), keyset.id(), keyset.from(), "FAILED", null, 21);
    }

    @Test
    void namesThatAreNotPlainIdentifiersAreRefused() {
        assertThatThrownBy(() -> KeysetQuery.of("batch_task; DROP TABLE x")).isInstanceOf(
                IllegalArgumentException.class);
        assertThatThrownBy(() -> KeysetQuery.Filter.text("status OR 1=1")).isInstanceOf(
                IllegalArgumentException.class);
    }
}
