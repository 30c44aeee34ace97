package io.pmedia.batch.service;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import io.pmedia.batch.BatchTask;
import io.pmedia.events.BatchStatus;

/**
 * What a task's {@code message} says about its progress and deadline (docs/batch.md, "Deadlines and progress"):
 * {@code 412 of 10000 rows, projected to finish 14:05Z, due 14:10Z} while it runs. The projection is the task's own
 * pace since its rows were stored (rows that failed while the file was read do not count as pace). A task projected to
 * miss its deadline says so as soon as its pace shows it; past its deadline it says so and keeps rendering.
 */
public final class Progress {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DAY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'")
            .withZone(ZoneOffset.UTC);

    private Progress() {
    }

    /** The message a task shows now: its progress while it runs, what it last said otherwise. */
    public static String message(BatchTask task, Instant now) {
        if (task.onView() && task.status() == BatchStatus.COMPLETED) {
            return linked(task);
        }
        if (task.status() != BatchStatus.IN_PROGRESS || task.startedAt == null) {
            return task.message;
        }
        StringBuilder text = new StringBuilder().append(task.processed).append(" of ").append(task.totalCount)
                .append(" rows");
        Instant projected = projectedFinish(task, now);
        String due = time(task.dueAt, now);
        if (now.isAfter(task.dueAt)) {
            text.append(", past its due time ").append(due).append(" and still rendering");
            if (projected != null) {
                text.append(", projected to finish ").append(time(projected, now));
            }
        } else if (projected != null && projected.isAfter(task.dueAt)) {
            text.append(", projected to finish ").append(time(projected, now)).append(", ")
                    .append(minutes(Duration.between(task.dueAt, projected))).append(" after its due time ")
                    .append(due);
        } else if (projected != null) {
            text.append(", projected to finish ").append(time(projected, now)).append(", due ").append(due);
        } else {
            text.append(", due ").append(due);
        }
        return withNotes(text, task.notes);
    }

    /**
     * When the task should end at its pace so far; null before a row was answered (no pace yet) and once it has
     * ended.
     */
    public static Instant projectedFinish(BatchTask task, Instant now) {
        if (task.status() != BatchStatus.IN_PROGRESS || task.startedAt == null) {
            return null;
        }
        long answered = (long) task.processed - task.failedOnRead;
        long remaining = (long) task.totalCount - task.processed;
        if (remaining <= 0) {
            return now;
        }
        if (answered <= 0) {
            return null;
        }
        double millisPerRow = Math.max(1, Duration.between(task.startedAt, now).toMillis()) / (double) answered;
        return now.plusMillis((long) Math.ceil(millisPerRow * remaining));
    }

    /** The message of a task whose rows have all been answered: how many were rendered, late or not, and the notes. */
    public static String finished(BatchTask task, Instant now) {
        StringBuilder text = new StringBuilder().append(task.succeeded).append(" of ").append(task.totalCount)
                .append(" rows rendered");
        if (now.isAfter(task.dueAt)) {
            text.append(", finished ").append(minutes(Duration.between(task.dueAt, now)))
                    .append(" after its due time ").append(time(task.dueAt, now));
        }
        return withNotes(text, task.notes);
    }

    /**
     * The message of a task rendered on first view once its links are out: {@code 1000 share links ready, each row
     * rendered when its link is first opened: 50 opened, 48 rendered, 1 failed}.
     */
    public static String linked(BatchTask task) {
        int links = task.totalCount - task.failedOnRead;
        StringBuilder text = new StringBuilder().append(links).append(links == 1 ? " share link" : " share links")
                .append(" ready, each row rendered when its link is first opened: ").append(task.viewed)
                .append(" opened, ").append(task.rendered).append(" rendered, ").append(task.renderFailed)
                .append(" failed");
        if (task.failedOnRead > 0) {
            text.append("; ").append(task.failedOnRead).append(task.failedOnRead == 1 ? " row" : " rows")
                    .append(" could not be read");
        }
        return withNotes(text, task.notes);
    }

    private static String withNotes(StringBuilder text, String notes) {
        return notes == null || notes.isEmpty() ? text.toString() : text.append("; ").append(notes).toString();
    }

    /** A time of today as {@code 14:05Z}, of another day with its date. */
    public static String time(Instant at, Instant now) {
        boolean today = at.atOffset(ZoneOffset.UTC).toLocalDate().equals(now.atOffset(ZoneOffset.UTC).toLocalDate());
        return (today ? TIME : DAY_TIME).format(at);
    }

    /** A lateness in whole minutes, at least one ({@code 1 min}, {@code 15 min}); hours beyond two as hours. */
    static String minutes(Duration late) {
        long minutes = Math.max(1, (late.toSeconds() + 59) / 60);
        return minutes >= 120 ? (minutes / 60) + " h " + (minutes % 60) + " min" : minutes + " min";
    }
}
