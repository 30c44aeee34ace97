package io.pmedia.batch.service;

import java.io.IOException;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.batch.BatchRow;
import io.pmedia.batch.BatchTask;
import io.pmedia.events.RenderInput;
import io.pmedia.events.RenderJob;
import io.pmedia.events.RenderLane;
import io.pmedia.events.Topics;
import io.pmedia.storage.VendorNamespace;

/**
 * A row as a render job on the shared contract ({@link RenderJob}, docs/media.md "For other producers"): on the batch
 * lane, job id {@code <task-id>/<row>}, results to {@code pmedia.batch.render-results}, the task's pinned template
 * whole, the row's input, outputs under {@code batch/<client-id>/<task-id>/<row>/} (the vendor's own namespace).
 */
public final class RenderJobs {

    public static final String PRODUCER = "batch";

    private final ObjectMapper mapper;
    private final Duration timeLimit;

    public RenderJobs(ObjectMapper mapper, Duration timeLimit) {
        this.mapper = mapper;
        this.timeLimit = timeLimit;
    }

    /** {@code template}: the task's pinned definition, parsed once per round by the caller. */
    public RenderJob of(BatchTask task, JsonNode template, BatchRow row) throws IOException {
        return of(task, template, row, RenderLane.BATCH);
    }

    /**
     * The same job on {@code lane}: a row rendered on view goes to the realtime lane (a viewer waits for it), with the
     * same job id, result topic and outputs.
     */
    public RenderJob of(BatchTask task, JsonNode template, BatchRow row, RenderLane lane) throws IOException {
        return new RenderJob(jobId(task, row.rowNo()), PRODUCER, Topics.BATCH_RENDER_RESULTS, task.clientId,
                task.templateId, task.templateVersion, template, mapper.readValue(row.input(), RenderInput.class),
                outputPrefix(task, row.rowNo()), (int) timeLimit.toSeconds(), lane,
                Boolean.TRUE.equals(task.templateShared));
    }

    /** Where a row's render writes its outputs (and, rendered on view, its stream), in the vendor's namespace. */
    static String outputPrefix(BatchTask task, int rowNo) {
        return VendorNamespace.Kind.BATCH.prefix(task.clientId) + task.id + "/" + rowNo + "/";
    }

    static String jobId(BatchTask task, int rowNo) {
        return task.id + "/" + rowNo;
    }
}
