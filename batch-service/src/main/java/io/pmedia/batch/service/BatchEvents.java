package io.pmedia.batch.service;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.batch.BatchTask;
import io.pmedia.common.event.CloudEvent;
import io.pmedia.common.event.Topics;
import io.pmedia.common.outbox.Outbox;
import io.smallrye.mutiny.Uni;

/** Publishes a task's status through the outbox, in the same transaction as the change (docs/events.md). */
@ApplicationScoped
public class BatchEvents {

    static final String SOURCE = "/pmedia/batch-service";

    private final Outbox outbox;
    private final ObjectMapper mapper;

    public BatchEvents(Outbox outbox, ObjectMapper mapper) {
        this.outbox = outbox;
        this.mapper = mapper;
    }

    public Uni<Void> statusOf(BatchTask task) {
        ObjectNode data = mapper.createObjectNode()
                .put("client-id", task.clientId.toString())
                .put("task-id", task.id.toString())
                .put("campaign-id", task.campaignId)
                .put("template-id", task.templateId.toString())
                .put("status", task.status)
                .put("file-path", task.outputPath)
                .put("total-count", task.totalCount)
                .put("processed", task.processed)
                .put("message", task.message);
        CloudEvent event = CloudEvent.of(SOURCE, Topics.BATCH_STATUS_CHANGED, task.id.toString(), data);
        return outbox.add(Topics.BATCH_STATUS, task.id.toString(), event);
    }
}
