package io.pmedia.common.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;

import io.vertx.pgclient.PgException;

class ConflictsTest {

    @Test
    void aUniqueViolationAtAnyDepthIsAConflictNamingTheResource() {
        PgException duplicate = new PgException("duplicate key value violates unique constraint", "ERROR", "23505",
                "Key (client_id, campaign_id) already exists.");
        Throwable wrapped = new IllegalStateException("wrapped", new RuntimeException(duplicate));

        ApiException conflict = Conflicts.conflict(wrapped);

        assertThat(conflict).isNotNull();
        assertThat(conflict.code()).isEqualTo(ErrorCode.CONFLICT);
        assertThat(conflict.getMessage()).contains("already exists").doesNotContain("constraint");
    }

    @Test
    void aJdbcUniqueViolationIsAConflictToo() {
        assertThat(Conflicts.conflict(new SQLException("dup", "23505"))).isNotNull();
    }

    @Test
    void otherFailuresAreNotConflicts() {
        assertThat(Conflicts.conflict(new PgException("syntax", "ERROR", "42601", null))).isNull();
        assertThat(Conflicts.conflict(new IllegalStateException("boom"))).isNull();
    }
}
