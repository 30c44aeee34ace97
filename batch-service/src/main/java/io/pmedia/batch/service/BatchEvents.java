package io.pmedia.batch.service;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.batch.BatchTask;
import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.events.BatchStatusChanged;
import io.pmedia.storage.ObjectStore;
import io.smallrye.mutiny.Uni;

/**
 * A task's status event (docs/events.md): at every status change, as it makes progress, and when its output file is
 * written after a cancel or a campaign end. Published through the outbox, in the same transaction as the change.
 */
@ApplicationScoped
public class BatchEvents {

    private final EventPublisher publisher;
    private final ObjectStore store;

    public BatchEvents(EventPublisher publisher, ObjectStore store) {
        this.publisher = publisher;
        this.store = store;
    }

    public Uni<Void> statusOf(BatchTask task) {
        return publisher.publish(event(task, Instant.now()));
    }

    /** The event of the task as it stands: progress and projection as its status message says them now. */
    public BatchStatusChanged event(BatchTask task, Instant now) {
        return new BatchStatusChanged(task.clientId, task.id, task.campaignId, task.templateId, task.status(),
                outputPath(task), task.totalCount, task.processed, Progress.message(task, now), task.dueAt,
                Progress.projectedFinish(task, now));
    }

    /** The output file as {@code s3://<bucket>/<key>} once the task has ended and the file is written; else null. */
    public String outputPath(BatchTask task) {
        return task.status().isFinal() && task.outputKey != null ? store.s3Path(task.outputKey) : null;
    }
}
