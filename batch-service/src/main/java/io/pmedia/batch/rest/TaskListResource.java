package io.pmedia.batch.rest;

import java.time.Instant;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import io.pmedia.batch.BatchTask;
import io.pmedia.batch.service.BatchTasks;
import io.pmedia.batch.service.Progress;
import io.pmedia.common.paging.Dates;
import io.pmedia.common.paging.ListFilters;
import io.pmedia.common.paging.Page;
import io.pmedia.common.paging.PageRequest;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.events.BatchStatus;
import io.pmedia.storage.ObjectStore;
import io.smallrye.mutiny.Uni;

/**
 * {@code GET /media/tasks} (beyond the interface): the caller's batch tasks with their progress, newest first, a page
 * at a time (contracts.md, "Viewers, the console and SDKs").
 */
@Path("/media/tasks")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.CLIENT)
@Tag(name = "Batch tasks")
public class TaskListResource {

    /**
     * One task: the 2.8 status fields (with {@code file-url}), what it was created with, and its deadline, projected
     * finish and end; {@code input-file-path} is the file it reads ({@code file-path} is its output, as in 2.8).
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"task-id", "status", "file-path", "file-url", "total-count", "processed", "message",
            "campaign-id", "template-id", "template-version", "file-name", "input-file-path", "priority", "row-count",
            "expected-output-duration", "created-at", "due-at", "projected-finish", "ended-at"})
    public record TaskItem(@JsonProperty("task-id") UUID taskId, String status,
            @JsonProperty("file-path") String filePath, @JsonProperty("file-url") String fileUrl,
            @JsonProperty("total-count") int totalCount, int processed, String message,
            @JsonProperty("campaign-id") String campaignId, @JsonProperty("template-id") UUID templateId,
            @JsonProperty("template-version") int templateVersion, @JsonProperty("file-name") String fileName,
            @JsonProperty("input-file-path") String inputFilePath, int priority,
            @JsonProperty("row-count") int rowCount,
            @JsonProperty("expected-output-duration") int expectedOutputDuration,
            @JsonProperty("created-at") Instant createdAt, @JsonProperty("due-at") Instant dueAt,
            @JsonProperty("projected-finish") Instant projectedFinish, @JsonProperty("ended-at") Instant endedAt) {
    }

    private final BatchTasks tasks;
    private final Caller caller;
    private final ObjectStore store;

    public TaskListResource(BatchTasks tasks, Caller caller, ObjectStore store) {
        this.tasks = tasks;
        this.caller = caller;
        this.store = store;
    }

    @GET
    @Operation(summary = "The caller's batch tasks with their progress, newest first, filtered and paginated")
    public Uni<Page<TaskItem>> list(@QueryParam("status") String status, @QueryParam("campaign-id") String campaignId,
            @QueryParam("template-id") String templateId, @QueryParam("from") String from,
            @QueryParam("to") String to, @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        PageRequest page = PageRequest.of(limit, cursor);
        Instant since = Dates.time("from", from);
        Instant until = Dates.time("to", to);
        Dates.range(since, until);
        BatchTasks.ListFilter filter = new BatchTasks.ListFilter(
                ListFilters.oneOf("status", status, BatchStatus.class, BatchStatus::wire),
                ListFilters.text("campaign-id", campaignId), ListFilters.uuid("template-id", templateId), since,
                until);
        Instant now = Instant.now();
        return tasks.list(caller.clientId(), filter, page).map(found -> found.map(task -> item(task, now)));
    }

    private TaskItem item(BatchTask task, Instant now) {
        boolean ended = task.status().isFinal();
        String output = ended ? task.outputKey : null;
        return new TaskItem(task.id, task.status, output == null ? null : store.s3Path(output),
                output == null ? null : store.publicUrl(output), task.totalCount, task.processed,
                Progress.message(task, now), task.campaignId, task.templateId, task.templateVersion, task.fileName,
                task.filePath, task.priority, task.rowCount, task.expectedOutputDuration, task.createdAt, task.dueAt,
                Progress.projectedFinish(task, now), ended ? task.updatedAt : null);
    }
}
