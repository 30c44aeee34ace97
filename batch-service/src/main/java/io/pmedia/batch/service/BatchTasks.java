package io.pmedia.batch.service;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.pmedia.batch.BatchTask;
import io.pmedia.batch.client.MediaTemplateClient;
import io.pmedia.batch.config.BatchConfig;
import io.pmedia.batch.repository.CampaignWindowStore;
import io.pmedia.batch.repository.TaskStore;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.common.paging.Cursor;
import io.pmedia.common.paging.Page;
import io.pmedia.common.paging.PageRequest;
import io.pmedia.common.repository.CreateLock;
import io.pmedia.events.BatchStatus;
import io.pmedia.events.RenderMode;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;

/**
 * Accepting, reading and cancelling batch tasks (interface 4.6-4.8); reading the file is {@link Ingestion}'s,
 * rendering the {@link Dispatcher}'s, ending and the output file {@link Outputs}'.
 */
@ApplicationScoped
public class BatchTasks {

    private static final Logger LOG = Logger.getLogger(BatchTasks.class);

    /**
     * What a vendor asked for, checked by the resource; {@code filePath} as the vendor wrote it; {@code render} null
     * when the request did not say (the task renders as its campaign does).
     */
    public record Submission(UUID clientId, String campaignId, UUID templateId, String fileName, String filePath,
            int priority, int rowCount, int expectedOutputDuration, RenderMode render) {

        /** The wire name of the render asked for, or null. */
        String renderAsked() {
            return render == null ? null : render.wire();
        }
    }

    /** Where an upload goes and the presigned URL that puts it there. */
    public record Upload(String filePath, String url, Duration expiresIn) {
    }

    /** A plain file name: no path, no control characters, nothing a shell or a URL would read twice. */
    private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,199}");

    private final MediaTemplateClient templates;
    private final ObjectStore store;
    private final BatchEvents events;
    private final TaskStore tasks;
    private final CampaignWindowStore windows;
    private final Outputs outputs;
    private final Dispatcher dispatcher;
    private final BatchConfig config;

    public BatchTasks(MediaTemplateClient templates, ObjectStore store, BatchEvents events, TaskStore tasks,
            CampaignWindowStore windows, Outputs outputs, Dispatcher dispatcher, BatchConfig config) {
        this.windows = windows;
        this.templates = templates;
        this.store = store;
        this.events = events;
        this.tasks = tasks;
        this.outputs = outputs;
        this.dispatcher = dispatcher;
        this.config = config;
    }

    /**
     * Pins the template the vendor may use (asked of media-service with the vendor's own token), checks the input
     * file exists, and stores the task {@code PENDING} with its event, in one transaction.
     */
    @WithSpan
    public Uni<BatchTask> accept(Submission submission, String authorization) {
        return templateFor(submission.templateId(), authorization)
                .flatMap(template -> findFile(submission.clientId(), submission.filePath())
                        .map(file -> Map.entry(template, file)))
                // programmatic: media-service and the store are asked before the transaction, not inside it
                .flatMap(found -> Panache.withTransaction(() -> CreateLock
                        .take("batch-task", submission.clientId(), submission.campaignId(),
                                store.s3Path(found.getValue()))
                        .flatMap(locked -> tasks.activeForFile(submission.clientId(), submission.campaignId(),
                                store.s3Path(found.getValue())))
                        .flatMap(active -> active != null
                                ? Uni.createFrom().item(sameOrConflict(active, submission, found.getKey()))
                                : windows.window(submission.clientId(), submission.campaignId())
                                        .flatMap(campaign -> create(submission, found.getKey(), found.getValue(),
                                                campaign)))))
                .invoke(task -> dispatcher.wake());
    }

    /**
     * A file is processed by one task per campaign at a time (docs/decisions.md, "Creates under concurrency"): the
     * same request again while its task is unfinished is that task, so a retried or doubled create never renders a
     * campaign twice; a different one for the same file and campaign is a conflict naming the task.
     */
    private static BatchTask sameOrConflict(BatchTask active, Submission submission, JsonNode template) {
        boolean same = active.templateId.equals(submission.templateId())
                && active.templateVersion == template.path("version").asInt()
                && Objects.equals(active.fileName, submission.fileName()) && active.priority == submission.priority()
                && active.rowCount == submission.rowCount()
                && active.expectedOutputDuration == submission.expectedOutputDuration()
                && Objects.equals(active.renderAsked, submission.renderAsked());
        if (!same) {
            throw ApiException.conflict("task '" + active.id + "' is still " + active.status + " for file "
                    + active.filePath + " in campaign '" + active.campaignId + "' with other settings; cancel it or"
                    + " wait for it to end");
        }
        return active;
    }

    /**
     * A new task {@code PENDING}. Its render: its own, else its campaign's ({@code campaignRender}, null when the campaign
     * has no window), else now; a task that follows its campaign's takes any later one until its file is read.
     */
    private Uni<BatchTask> create(Submission submission, JsonNode template, String fileKey,
            CampaignWindowStore.Window campaign) {
        if (campaign != null && campaign.ended()) {
            // docs/campaigns.md: an ended campaign renders nothing more, and is never scheduled again
            throw ApiException.conflict("campaign '" + submission.campaignId()
                    + "' has ended; a task cannot be created in an ended campaign");
        }
        BatchTask task = new BatchTask();
        task.id = UUID.randomUUID();
        task.clientId = submission.clientId();
        task.campaignId = submission.campaignId();
        task.templateId = submission.templateId();
        task.templateVersion = template.path("version").asInt();
        task.template = template.get("definition").toString();
        // GET /templates/{id} names the owner of a vendor's own template only
        task.templateShared = !template.hasNonNull("owner-client-id");
        task.fileName = submission.fileName();
        task.filePath = store.s3Path(fileKey);
        task.priority = submission.priority();
        task.rowCount = submission.rowCount();
        task.expectedOutputDuration = submission.expectedOutputDuration();
        task.totalCount = submission.rowCount();
        task.createdAt = Instant.now();
        task.dueAt = task.createdAt.plus(Duration.ofMinutes(submission.expectedOutputDuration()));
        task.shareKey = RowShares.newKey();
        task.renderAsked = submission.renderAsked();
        task.render = Objects.requireNonNullElse(task.renderAsked,
                campaign == null || campaign.render() == null ? RenderMode.NOW.wire() : campaign.render());
        task.status(BatchStatus.PENDING, "task accepted");
        return task.<BatchTask>persist().call(events::statusOf);
    }

    /** What {@code GET /media/tasks} filters on; null: any. */
    public record ListFilter(BatchStatus status, String campaignId, UUID templateId, Instant from, Instant to) {
    }

    /** A page of the client's tasks, newest first. */
    @WithSession
    public Uni<Page<BatchTask>> list(UUID clientId, ListFilter filter, PageRequest page) {
        return tasks.page(clientId, page.keyset(filter.from(), filter.to()), filter.status(),
                filter.campaignId(), filter.templateId(), page.fetchSize())
                .map(rows -> page.page(rows, task -> new Cursor(task.createdAt, task.id.toString())));
    }

    @WithSession
    public Uni<BatchTask> find(UUID taskId, UUID clientId) {
        return tasks.owned(taskId, clientId).onItem().ifNull()
                .failWith(() -> ApiException.notFound("task '" + taskId + "' not found"));
    }

    /**
     * Stops a task that has not ended: rows not yet submitted are cancelled, the task ends {@code FAILED} with "task
     * cancelled by the client", and the rows rendered so far are written to its output file. An ended task: 409.
     */
    @WithSpan
    public Uni<BatchTask> cancel(UUID taskId, UUID clientId) {
        // programmatic: the output writer is woken after the commit, so that it finds the task ended
        return Panache.withTransaction(() -> tasks.lockOwned(taskId, clientId)
                .onItem().ifNull().failWith(() -> ApiException.notFound("task '" + taskId + "' not found"))
                .call(task -> task.status().isFinal()
                        ? Uni.createFrom().failure(ApiException.conflict("task '" + taskId + "' has already ended ("
                                + task.status + "): it cannot be cancelled"))
                        : outputs.end(task, BatchStatus.FAILED, "task cancelled by the client")))
                .invoke(outputs::wake);
    }

    /**
     * The template the vendor may use; 400 naming the field when it is not one, 503 (retry later) when media-service
     * cannot answer now.
     */
    private Uni<JsonNode> templateFor(UUID templateId, String authorization) {
        return templates.usable(authorization, templateId).onFailure().transform(failure -> {
            LOG.warnf("template %s cannot be read from media-service: %s", templateId, failure.getMessage());
            return new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "templates cannot be read right now, retry later",
                    Duration.ofSeconds(5));
        }).map(found -> found.orElseThrow(() -> ApiException.validation("field 'template-id': '" + templateId
                + "' is not a template this client may use")));
    }

    /**
     * A presigned PUT for a new object {@code inputs/<client-id>/<id>/<file-name>}: the vendor uploads there and names
     * the answer's {@code file-path} when it creates the task.
     */
    @WithSpan
    public Uni<Upload> upload(UUID clientId, String fileName) {
        if (!FILE_NAME.matcher(fileName).matches() || fileName.contains("..")) {
            throw ApiException.validation("field 'file-name' must be a plain file name of at most 200 letters, digits,"
                    + " '.', '_' or '-' (no path), got '" + fileName + "'");
        }
        String key = VendorNamespace.Kind.INPUTS.prefix(clientId) + UUID.randomUUID() + "/" + fileName;
        Duration ttl = config.uploadUrlTtl();
        return Blocking.offload(() -> new Upload(store.s3Path(key), store.presignPut(key, ttl), ttl))
                .onFailure(failure -> !(failure instanceof ApiException)).transform(BatchTasks::storeUnavailable);
    }

    /**
     * The key of the vendor's file: it must be in the vendor's own namespace and exist; anything else, whatever the
     * reason, answers 404 "file not found: <path as given>" (another vendor's file must read exactly like a missing
     * one). Checked against the size limit.
     */
    private Uni<String> findFile(UUID clientId, String filePath) {
        Optional<String> key = store.ownedKey(clientId, filePath);
        if (key.isEmpty()) {
            return Uni.createFrom().failure(fileNotFound(filePath));
        }
        return Blocking.offload(() -> store.size(key.get()))
                .onFailure().transform(BatchTasks::storeUnavailable)
                .map(size -> {
                    if (size.isEmpty()) {
                        throw fileNotFound(filePath);
                    }
                    if (size.get() > config.maxFileBytes()) {
                        throw ApiException.validation("field 'file-path': the file is " + size.get()
                                + " bytes, larger than the limit of " + config.maxFileBytes() + " bytes");
                    }
                    return key.get();
                });
    }

    private static ApiException fileNotFound(String filePath) {
        return ApiException.notFound("file not found: " + filePath);
    }

    private static ApiException storeUnavailable(Throwable failure) {
        LOG.warnf("object storage cannot be reached: %s", failure.getMessage());
        return new ApiException(ErrorCode.SERVICE_UNAVAILABLE,
                "object storage cannot be reached right now, retry later",
                Duration.ofSeconds(5));
    }
}
