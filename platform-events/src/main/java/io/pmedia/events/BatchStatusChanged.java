package io.pmedia.events;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * {@code pmedia.batch.status}: a batch task changed status or made progress. {@code file-path} is the output file
 * ({@code s3://<bucket>/<key>}) once the task has ended and the file is written. {@code due-at} is the task's deadline
 * (acceptance + {@code expected-output-duration}); {@code projected-finish} when it is expected to end at the pace of
 * its rows so far (null before the first row is answered and once it has ended).
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"client-id", "task-id", "campaign-id", "template-id", "status", "file-path", "total-count",
        "processed", "message", "due-at", "projected-finish"})
public record BatchStatusChanged(
        @JsonProperty("client-id") UUID clientId,
        @JsonProperty("task-id") UUID taskId,
        @JsonProperty("campaign-id") String campaignId,
        @JsonProperty("template-id") UUID templateId,
        BatchStatus status,
        @JsonProperty("file-path") String filePath,
        @JsonProperty("total-count") int totalCount,
        int processed,
        String message,
        @JsonProperty("due-at") @JsonFormat(shape = JsonFormat.Shape.STRING) Instant dueAt,
        @JsonProperty("projected-finish") @JsonFormat(shape = JsonFormat.Shape.STRING) Instant projectedFinish)
        implements
            EventPayload {

    @Override
    public String topic() {
        return Topics.BATCH_STATUS;
    }

    @Override
    public String type() {
        return Topics.BATCH_STATUS_CHANGED;
    }

    @Override
    public String key() {
        return taskId.toString();
    }
}
