package io.pmedia.batch.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.pmedia.batch.BatchTask;
import io.pmedia.events.BatchStatus;

/** What a running task's message says about its progress and its deadline. */
class ProgressTest {

    private static final Instant START = Instant.parse("2026-11-24T13:50:00Z");

    @Test
    void aTaskOnTimeSaysWhenItIsProjectedToFinishAndWhenItIsDue() {
        // 500 rows in 5 minutes: the other 500 take 5 more.
        BatchTask task = running(1000, 500, 0, "2026-11-24T14:10:00Z");
        assertThat(Progress.message(task, START.plusSeconds(300)))
                .isEqualTo("500 of 1000 rows, projected to finish 14:00Z, due 14:10Z");
        assertThat(Progress.projectedFinish(task, START.plusSeconds(300))).isEqualTo(START.plusSeconds(600));
    }

    @Test
    void aTaskProjectedToMissItsDeadlineSaysSoEarly() {
        BatchTask task = running(1000, 100, 0, "2026-11-24T14:10:00Z");
        // 100 rows in 5 minutes: 900 more take 45 minutes.
        assertThat(Progress.message(task, START.plusSeconds(300)))
                .isEqualTo("100 of 1000 rows, projected to finish 14:40Z, 30 min after its due time 14:10Z");
    }

    @Test
    void aLongDelayIsSaidInHours() {
        BatchTask task = running(10_000, 412, 0, "2026-11-24T14:10:00Z");
        assertThat(Progress.message(task, START.plusSeconds(412)))
                .isEqualTo("412 of 10000 rows, projected to finish 16:36Z, 2 h 27 min after its due time 14:10Z");
    }

    @Test
    void aTaskPastItsDeadlineSaysSoAndKeepsRendering() {
        BatchTask task = running(1000, 900, 0, "2026-11-24T14:10:00Z");
        assertThat(Progress.message(task, Instant.parse("2026-11-24T14:20:00Z")))
                .isEqualTo("900 of 1000 rows, past its due time 14:10Z and still rendering, projected to finish"
                        + " 14:23Z");
    }

    @Test
    void beforeTheFirstAnswerThereIsNoProjectionAndRowsFailedOnReadingAreNoPace() {
        BatchTask task = running(10, 3, 3, "2026-11-25T09:00:00Z");
        task.notes = "columns no template field uses were ignored: 'color'";
        assertThat(Progress.message(task, START.plusSeconds(60))).isEqualTo(
                "3 of 10 rows, due 2026-11-25 09:00Z; columns no template field uses were ignored: 'color'");
        assertThat(Progress.projectedFinish(task, START.plusSeconds(60))).isNull();
    }

    @Test
    void aFinishedTaskSaysHowManyRowsWereRenderedAndWhetherItWasLate() {
        BatchTask task = running(4, 4, 1, "2026-11-24T14:10:00Z");
        task.succeeded = 2;
        assertThat(Progress.finished(task, START.plusSeconds(60))).isEqualTo("2 of 4 rows rendered");
        assertThat(Progress.finished(task, Instant.parse("2026-11-24T14:25:10Z")))
                .isEqualTo("2 of 4 rows rendered, finished 16 min after its due time 14:10Z");
    }

    private static BatchTask running(int total, int processed, int failedOnRead, String due) {
        BatchTask task = new BatchTask();
        task.status(BatchStatus.IN_PROGRESS, "");
        task.totalCount = total;
        task.processed = processed;
        task.failedOnRead = failedOnRead;
        task.startedAt = START;
        task.dueAt = Instant.parse(due);
        return task;
    }
}
