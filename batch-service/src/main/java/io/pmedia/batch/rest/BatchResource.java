package io.pmedia.batch.rest;

import java.util.List;
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
import io.pmedia.batch.service.InputFiles;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.Fields;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.StorageConfig;
import io.smallrye.mutiny.Uni;

/** Interface 4.6-4.8: batch tasks. */
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
            @JsonProperty("expected-output-duration") Integer expectedOutputDuration) {
    }

    /** Interface 2.8, create and cancel responses. */
    public record TaskAnswer(@JsonProperty("client-id") String clientId,
            @JsonProperty("campaign-id") String campaignId,
            @JsonProperty("template-id") UUID templateId,
            @JsonProperty("task-id") UUID taskId,
            String message) {
    }

    /** Interface 2.8, task status. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record TaskStatus(@JsonProperty("task-id") UUID taskId,
            String status,
            @JsonProperty("file-path") String filePath,
            @JsonProperty("total-count") int totalCount,
            int processed,
            String message) {
    }

    static final int MAX_TEXT = 255;

    private final BatchTasks tasks;
    private final Caller caller;
    private final BatchConfig config;
    private final ObjectStore store;
    private final StorageConfig storage;

    public BatchResource(BatchTasks tasks, Caller caller, BatchConfig config, ObjectStore store,
            StorageConfig storage) {
        this.tasks = tasks;
        this.caller = caller;
        this.config = config;
        this.store = store;
        this.storage = storage;
    }

    @POST
    @Path("create")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a batch task")
    public Uni<TaskAnswer> create(@HeaderParam("Authorization") String authorization, CreateRequest body) {
        if (body == null) {
            throw ApiException.badRequest("request body is required");
        }
        UUID clientId = caller.clientId();
        if (body.clientId() != null && !body.clientId().strip().equalsIgnoreCase(clientId.toString())) {
            throw ApiException.validation("field 'client-id' must be the id of the client the token was issued to");
        }
        String campaignId = Fields.required("campaign-id", body.campaignId(), MAX_TEXT);
        UUID templateId = Fields.uuid("template-id", body.templateId());
        String fileName = Fields.optional("file-name", body.fileName(), MAX_TEXT);
        String filePath = Fields.required("file-path", body.filePath(), 1024);
        List<InputFiles.Location> file = InputFiles.candidates(filePath, store.bucket(), storage.endpoint());
        if (file.isEmpty()) {
            throw ApiException.validation("field 'file-path' must be an object-storage path '<bucket>/<key>'"
                    + " (or 's3://<bucket>/<key>', or a key of bucket '" + store.bucket() + "'), got '" + filePath
                    + "'");
        }
        int rowCount = Fields.atLeastOne("row-count", body.rowCount());
        if (rowCount > config.maxRows()) {
            throw ApiException.validation("field 'row-count' must be at most " + config.maxRows());
        }
        int duration = Fields.atLeastOne("expected-output-duration", body.expectedOutputDuration());
        int priority = body.priority() == null ? 0 : body.priority();
        return tasks.accept(new BatchTasks.Submission(clientId, campaignId, templateId, fileName, file, priority,
                rowCount, duration), authorization)
                .map(task -> answer(task, "task accepted: " + rowCount + " rows of " + task.filePath + " with template "
                        + templateId + " version " + task.templateVersion));
    }

    @GET
    @Path("status/{taskId}")
    @Operation(summary = "A batch task's status and progress")
    public Uni<TaskStatus> status(@PathParam("taskId") String taskId) {
        return tasks.find(taskId(taskId), caller.clientId())
                .map(task -> new TaskStatus(task.id, task.status, task.status().isFinal() ? task.outputPath : null,
                        task.totalCount, task.processed, task.message));
    }

    @POST
    @Path("cancel/{taskId}")
    @Operation(summary = "Cancel a batch task that has not ended")
    public Uni<TaskAnswer> cancel(@PathParam("taskId") String taskId) {
        return tasks.cancel(taskId(taskId), caller.clientId()).map(task -> answer(task, "task cancelled"));
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
