package io.pmedia.batch.service;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import io.pmedia.batch.repository.TaskStore;

/**
 * Which tasks get the free places of the window, in which order (docs/batch.md, "Priority, fairness and deadlines"):
 * <ol>
 * <li>A higher {@code priority} goes first: lower priorities get only what it leaves.</li>
 * <li>Within a priority, vendors share the window equally: each place goes to the vendor with the fewest rows in flight
 * (at that priority), so one vendor's million-row task cannot starve another vendor's hundred rows, however the places
 * free up (one per result, or many at once). Ties go to the vendor with the most urgent deadline.</li>
 * <li>A vendor's place goes to its task with the earliest deadline (then the oldest): deadlines order a vendor's own
 * work and break ties, but never take a place from another vendor (a vendor cannot buy the whole pool by declaring
 * short deadlines).</li>
 * <li>No task has more than {@code perTaskCap} rows in flight.</li>
 * </ol>
 * Pure: the dispatcher gives it the runnable tasks and the free places, and submits rows in the order returned.
 */
public final class SubmissionPlan {

    private static final Comparator<TaskStore.Runnable> URGENCY = Comparator
            .comparing(TaskStore.Runnable::dueAt).thenComparing(TaskStore.Runnable::createdAt)
            .thenComparing(TaskStore.Runnable::taskId);

    private SubmissionPlan() {
    }

    /** One task id per row to submit, in submission order: at most {@code free} of them. */
    public static List<UUID> plan(List<TaskStore.Runnable> runnable, int free, int perTaskCap) {
        List<UUID> order = new ArrayList<>();
        Map<UUID, Integer> room = new HashMap<>();
        for (TaskStore.Runnable task : runnable) {
            room.put(task.taskId(), Math.max(0, Math.min(perTaskCap - task.inFlight(), task.pending())));
        }
        TreeMap<Integer, List<TaskStore.Runnable>> byPriority = new TreeMap<>(Comparator.reverseOrder());
        for (TaskStore.Runnable task : runnable) {
            byPriority.computeIfAbsent(task.priority(), p -> new ArrayList<>()).add(task);
        }
        for (List<TaskStore.Runnable> level : byPriority.values()) {
            if (order.size() >= free) {
                break;
            }
            deal(level, room, free, order);
        }
        return order;
    }

    /** Places to the vendor with the fewest rows in flight, until they run out or nobody can take more. */
    private static void deal(List<TaskStore.Runnable> level, Map<UUID, Integer> room, int free, List<UUID> order) {
        Map<UUID, List<TaskStore.Runnable>> byVendor = new LinkedHashMap<>();
        level.stream().sorted(URGENCY)
                .forEach(task -> byVendor.computeIfAbsent(task.clientId(), c -> new ArrayList<>()).add(task));
        // Vendors in the order of their most urgent task (the map keeps the order of the sorted stream).
        List<UUID> vendors = new ArrayList<>(byVendor.keySet());
        Map<UUID, Integer> inFlight = new HashMap<>();
        byVendor.forEach((vendor, tasks) -> inFlight.put(vendor,
                tasks.stream().mapToInt(TaskStore.Runnable::inFlight).sum()));
        while (order.size() < free) {
            UUID next = null;
            TaskStore.Runnable task = null;
            for (UUID vendor : vendors) {
                TaskStore.Runnable candidate = byVendor.get(vendor).stream()
                        .filter(t -> room.get(t.taskId()) > 0).findFirst().orElse(null);
                if (candidate != null && (next == null || inFlight.get(vendor) < inFlight.get(next))) {
                    next = vendor;
                    task = candidate;
                }
            }
            if (task == null) {
                return;
            }
            room.merge(task.taskId(), -1, Integer::sum);
            inFlight.merge(next, 1, Integer::sum);
            order.add(task.taskId());
        }
    }
}
