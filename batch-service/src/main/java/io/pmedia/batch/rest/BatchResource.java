package io.pmedia.batch.rest;

import java.time.Instant;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.pmedia.batch.BatchTask;
import io.pmedia.batch.config.BatchConfig;
import io.pmedia.batch.service.BatchTasks;
import io.pmedia.batch.service.Progress;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.Fields;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.events.RenderMode;
import io.pmedia.storage.ObjectStore;
import io.smallrye.mutiny.Uni;

/**
 * Interface 4.6-4.8: batch tasks; and {@code POST /media/task/uploads} (beyond the interface), which hands a vendor a
 * presigned URL to put its input file into its own namespace of the object store.
 */
@Path("/media/task")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.CLIENT)
@Tag(name = "Batch tasks")
public class BatchResource {

    /** Interface 2.8, create request. */
    public record CreateRequest(@JsonProperty("client-id") String clientId,
            @JsonProperty("campaign-id") String campaignId,
            @JsonProperty("template-id") String templateId,
            @JsonProperty("file-name") String fileName,
            @JsonProperty("file-path") String filePath,
            Integer priority,
            @JsonProperty("row-count") Integer rowCount,
            @JsonProperty("expected-output-duration") Integer expectedOutputDuration,
            String render) {
    }

    /** Interface 2.8, create and cancel responses. */
    public record TaskAnswer(@JsonProperty("client-id") String clientId,
            @JsonProperty("campaign-id") String campaignId,
            @JsonProperty("template-id") UUID templateId,
            @JsonProperty("task-id") UUID taskId,
            String message) {
    }

    /**
     * Interface 2.8, task status; beyond the interface: {@code file-url} downloads the output file named by
     * {@code file-path} without bucket credentials; {@code render} is how the rows are rendered, and the counts of
     * share links handed out ({@code links}), links opened ({@code viewed}), videos rendered ({@code rendered}) and
     * renders failed ({@code render-failed}).
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record TaskStatus(@JsonProperty("task-id") UUID taskId,
            String status,
            @JsonProperty("file-path") String filePath,
            @JsonProperty("file-url") String fileUrl,
            @JsonProperty("total-count") int totalCount,
            int processed,
            String message,
            String render,
            int links,
            int viewed,
            int rendered,
            @JsonProperty("render-failed") int renderFailed) {
    }

    /** {@code POST /media/task/uploads}: the name of the file to upload. */
    public record UploadRequest(@JsonProperty("file-name") String fileName) {
    }

    /** Where the file goes ({@code file-path}, for {@code POST /media/task/create}) and how to put it there. */
    public record UploadAnswer(@JsonProperty("file-path") String filePath,
            @JsonProperty("upload-url") String uploadUrl,
            @JsonProperty("expires-in") long expiresIn) {
    }

    static final int MAX_TEXT = 255;
    /** As campaign-service takes a campaign's id (docs/campaigns.md): a task is never in a campaign none can schedule. */
    static final int MAX_CAMPAIGN_ID = 128;
    static final int MAX_PATH = 2048;
    /** The longest deadline taken: a year, in minutes. */
    static final int MAX_DURATION_MINUTES = 525_600;

    private final BatchTasks tasks;
    private final Caller caller;
    private final BatchConfig config;
    private final ObjectStore store;

    public BatchResource(BatchTasks tasks, Caller caller, BatchConfig config, ObjectStore store) {
        this.tasks = tasks;
        this.caller = caller;
        this.config = config;
        this.store = store;
    }

    @POST
    @Path("uploads")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "A presigned URL to upload a batch input file into this client's own namespace")
    public Uni<UploadAnswer> upload(UploadRequest body) {
        if (body == null) {
            throw ApiException.badRequest("request body is required");
        }
        String fileName = Fields.required("file-name", body.fileName(), MAX_TEXT);
        return tasks.upload(caller.clientId(), fileName).map(upload -> new UploadAnswer(upload.filePath(),
                upload.url(), upload.expiresIn().toSeconds()));
    }

    @POST
    @Path("create")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a batch task")
    public Uni<TaskAnswer> create(@HeaderParam("Authorization") String authorization, CreateRequest body) {
        if (body == null) {
            throw ApiException.badRequest("request body is required");
        }
        UUID clientId = caller.clientIdNamedBy(body.clientId());
        String campaignId = Fields.required("campaign-id", body.campaignId(), MAX_CAMPAIGN_ID);
        UUID templateId = Fields.uuid("template-id", body.templateId());
        String fileName = Fields.optional("file-name", body.fileName(), MAX_TEXT);
        String filePath = Fields.required("file-path", body.filePath(), MAX_PATH);
        int rowCount = Fields.atLeastOne("row-count", body.rowCount());
        if (rowCount > config.maxRows()) {
            throw ApiException.validation("field 'row-count' must be at most " + config.maxRows());
        }
        int duration = Fields.atLeastOne("expected-output-duration", body.expectedOutputDuration());
        if (duration > MAX_DURATION_MINUTES) {
            throw ApiException.validation("field 'expected-output-duration' must be at most " + MAX_DURATION_MINUTES
                    + " (minutes: one year)");
        }
        int priority = body.priority() == null ? 0 : body.priority();
        // Not said: the task renders as its campaign does (docs/batch.md, "A campaign rendered on view").
        String asked = Fields.oneOf("render", body.render(), RenderMode.wires(), null);
        RenderMode render = asked == null ? null : RenderMode.ofWire(asked);
        return tasks.accept(new BatchTasks.Submission(clientId, campaignId, templateId, fileName, filePath, priority,
                rowCount, duration, render), authorization)
                .map(task -> answer(task, "task accepted: " + rowCount + " rows of " + task.filePath + " with template "
                        + templateId + " version " + task.templateVersion + ", due "
                        + Progress.time(task.dueAt, task.createdAt)
                        + (task.onView() ? "; each row is rendered when its share-url is first opened" : "")
                        + (task.onView() && task.renderOfCampaign()
                                ? ", as campaign '" + task.campaignId + "' renders on view"
                                : "")));
    }

    @GET
    @Path("status/{taskId}")
    @Operation(summary = "A batch task's status and progress")
    public Uni<TaskStatus> status(@PathParam("taskId") String taskId) {
        return tasks.find(taskId(taskId), caller.clientId()).map(this::status);
    }

    @POST
    @Path("cancel/{taskId}")
    @Operation(summary = "Cancel a batch task that has not ended")
    public Uni<TaskAnswer> cancel(@PathParam("taskId") String taskId) {
        return tasks.cancel(taskId(taskId), caller.clientId()).map(task -> answer(task, "task cancelled"));
    }

    private TaskStatus status(BatchTask task) {
        String output = task.status().isFinal() ? task.outputKey : null;
        return new TaskStatus(task.id, task.status, output == null ? null : store.s3Path(output),
                output == null ? null : store.publicUrl(output), task.totalCount, task.processed,
                Progress.message(task, Instant.now()), task.render, links(task), task.viewed,
                task.onView() ? task.rendered : task.succeeded, task.renderFailed);
    }

    /**
     * The share links the task handed out: every row read without a fault of a task rendered on view (once its
     * output file is written); every rendered row otherwise.
     */
    private static int links(BatchTask task) {
        if (!task.onView()) {
            return task.succeeded;
        }
        return task.outputKey == null ? 0 : task.totalCount - task.failedOnRead;
    }

    private static TaskAnswer answer(BatchTask task, String message) {
        return new TaskAnswer(task.clientId.toString(), task.campaignId, task.templateId, task.id, message);
    }

    private static UUID taskId(String value) {
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            throw ApiException.validation("taskId '" + value + "' is not a valid uuid");
        }
    }
}
