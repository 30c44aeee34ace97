package io.pmedia.batch.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.pmedia.batch.repository.TaskStore;

/** The order in which rows of runnable tasks are submitted (docs/batch.md, "Priority, fairness and deadlines"). */
class SubmissionPlanTest {

    private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
    private static final UUID VENDOR_A = UUID.randomUUID();
    private static final UUID VENDOR_B = UUID.randomUUID();

    @Test
    void aHigherPriorityTakesThePlacesFirst() {
        var low = task(VENDOR_A, 0, 10, 0, 1000);
        var high = task(VENDOR_A, 5, 60, 0, 3);
        assertThat(SubmissionPlan.plan(List.of(low, high), 5, 100))
                .containsExactly(high.taskId(), high.taskId(), high.taskId(), low.taskId(), low.taskId());
    }

    @Test
    void vendorsOfOnePriorityShareTheWindowEquallyWhateverTheSizeOfTheirTasks() {
        var million = task(VENDOR_A, 0, 10, 0, 1_000_000);
        var hundred = task(VENDOR_B, 0, 60, 0, 100);
        List<UUID> plan = SubmissionPlan.plan(List.of(million, hundred), 6, 1000);
        // A has the earlier deadline, so it wins the ties; B still gets every other place.
        assertThat(plan).containsExactly(million.taskId(), hundred.taskId(), million.taskId(), hundred.taskId(),
                million.taskId(), hundred.taskId());
    }

    @Test
    void aPlaceThatFreesUpGoesToTheVendorWithFewestRowsInFlight() {
        var million = task(VENDOR_A, 0, 10, 3, 1_000_000);
        var hundred = task(VENDOR_B, 0, 60, 1, 100);
        assertThat(SubmissionPlan.plan(List.of(million, hundred), 1, 1000)).containsExactly(hundred.taskId());
    }

    @Test
    void aVendorsOwnTasksGoEarliestDeadlineFirst() {
        var later = task(VENDOR_A, 0, 60, 0, 2);
        var sooner = task(VENDOR_A, 0, 10, 0, 2);
        assertThat(SubmissionPlan.plan(List.of(later, sooner), 4, 100))
                .containsExactly(sooner.taskId(), sooner.taskId(), later.taskId(), later.taskId());
    }

    @Test
    void noTaskHasMoreRowsInFlightThanItsCapAndPlacesLeftGoToOthers() {
        var busy = task(VENDOR_A, 0, 10, 3, 100);
        var other = task(VENDOR_B, 0, 60, 0, 100);
        assertThat(SubmissionPlan.plan(List.of(busy, other), 4, 4))
                .containsExactly(other.taskId(), other.taskId(), other.taskId(), busy.taskId());
    }

    private static TaskStore.Runnable task(UUID vendor, int priority, int dueInMinutes, int inFlight, int pending) {
        return new TaskStore.Runnable(UUID.randomUUID(), vendor, priority, NOW.plusSeconds(dueInMinutes * 60L),
                NOW, inFlight, pending);
    }
}
