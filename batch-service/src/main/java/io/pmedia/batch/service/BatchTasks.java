package io.pmedia.batch.service;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;

import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.batch.BatchStatus;
import io.pmedia.batch.BatchTask;
import io.pmedia.batch.config.BatchConfig;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.storage.ObjectStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;

/** Accepting, reading and cancelling batch tasks (interface 4.6-4.8); rendering is the {@link Dispatcher}'s. */
@ApplicationScoped
public class BatchTasks {

    private static final Logger LOG = Logger.getLogger(BatchTasks.class);

    /** What a vendor asked for, checked by the resource; {@code files}: where the input file may be, in order. */
    public record Submission(UUID clientId, String campaignId, UUID templateId, String fileName,
            List<InputFiles.Location> files, int priority, int rowCount, int expectedOutputDuration) {
    }

    private final MediaTemplates templates;
    private final ObjectStore store;
    private final BatchEvents events;
    private final Dispatcher dispatcher;
    private final BatchConfig config;

    public BatchTasks(@RestClient MediaTemplates templates, ObjectStore store, BatchEvents events,
            Dispatcher dispatcher, BatchConfig config) {
        this.templates = templates;
        this.store = store;
        this.events = events;
        this.dispatcher = dispatcher;
        this.config = config;
    }

    /**
     * Pins the template the vendor may use (asked of media-service with the vendor's own token), checks the input
     * file exists, and stores the task {@code PENDING} with its event, in one transaction.
     */
    public Uni<BatchTask> accept(Submission submission, String authorization) {
        return templateFor(submission.templateId(), authorization)
                .flatMap(template -> findFile(submission.files()).map(file -> Map.entry(template, file)))
                .flatMap(found -> Panache.withTransaction(() -> {
                    JsonNode template = found.getKey();
                    BatchTask task = new BatchTask();
                    task.id = UUID.randomUUID();
                    task.clientId = submission.clientId();
                    task.campaignId = submission.campaignId();
                    task.templateId = submission.templateId();
                    task.templateVersion = template.path("version").asInt();
                    task.template = template.get("definition").toString();
                    task.fileName = submission.fileName();
                    task.filePath = found.getValue().toString();
                    task.priority = submission.priority();
                    task.rowCount = submission.rowCount();
                    task.expectedOutputDuration = submission.expectedOutputDuration();
                    task.totalCount = submission.rowCount();
                    task.createdAt = Instant.now();
                    task.status(BatchStatus.PENDING, "task accepted");
                    return task.<BatchTask>persist().call(events::statusOf);
                }))
                .invoke(task -> dispatcher.wake());
    }

    @WithSession
    public Uni<BatchTask> find(UUID taskId, UUID clientId) {
        return BatchTask.owned(taskId, clientId).onItem().ifNull()
                .failWith(() -> ApiException.notFound("task '" + taskId + "' not found"));
    }

    /**
     * Stops a task that has not ended: rows not yet submitted are cancelled, the task ends {@code FAILED} with "task
     * cancelled by the client", and the rows rendered so far are written to its output file. An ended task: 409.
     */
    public Uni<BatchTask> cancel(UUID taskId, UUID clientId) {
        return Panache.withTransaction(() -> Panache.getSession()
                .flatMap(session -> session.createNativeQuery(
                        "SELECT * FROM batch_task WHERE id = ?1 AND client_id = ?2 FOR UPDATE", BatchTask.class)
                        .setParameter(1, taskId).setParameter(2, clientId).getSingleResultOrNull())
                .onItem().ifNull().failWith(() -> ApiException.notFound("task '" + taskId + "' not found"))
                .call(task -> task.status().isFinal()
                        ? Uni.createFrom().failure(ApiException.conflict("task '" + taskId + "' has already ended ("
                                + task.status + "): it cannot be cancelled"))
                        : dispatcher.finish(task, BatchStatus.FAILED, "task cancelled by the client")));
    }

    private Uni<JsonNode> templateFor(UUID templateId, String authorization) {
        return templates.usable(authorization, templateId.toString()).onFailure().transform(failure -> {
            if (failure instanceof WebApplicationException answered
                    && answered.getResponse().getStatus() == 404) {
                return ApiException.validation("field 'template-id': '" + templateId
                        + "' is not a template this client may use");
            }
            LOG.warnf("template %s cannot be read from media-service: %s", templateId, failure.getMessage());
            return new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "templates cannot be read right now, retry later");
        });
    }

    /** The first candidate that exists, checked against the size limit; 400 naming the path when none does. */
    private Uni<InputFiles.Location> findFile(List<InputFiles.Location> candidates) {
        return Blocking.offload(() -> {
            for (InputFiles.Location file : candidates) {
                Optional<Long> size = store.size(file.bucket(), file.key());
                if (size.isPresent()) {
                    return Map.entry(file, size.get());
                }
            }
            return null;
        }).onFailure().transform(failure -> {
            LOG.warnf("object storage cannot be read for %s: %s", candidates.get(0), failure.getMessage());
            return new ApiException(ErrorCode.SERVICE_UNAVAILABLE,
                    "object storage cannot be read right now, retry later");
        }).map(found -> {
            if (found == null) {
                throw ApiException.validation("field 'file-path': '" + candidates.get(0) + "' does not exist");
            }
            if (found.getValue() > config.maxFileBytes()) {
                throw ApiException.validation("field 'file-path': '" + found.getKey() + "' is larger than "
                        + config.maxFileBytes() + " bytes");
            }
            return found.getKey();
        });
    }
}
