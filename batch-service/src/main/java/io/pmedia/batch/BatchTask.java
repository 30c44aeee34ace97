package io.pmedia.batch;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.smallrye.mutiny.Uni;

/** A batch task (interface 2.8): the rows of one input file, rendered with one pinned template version. */
@Entity
@Table(name = "batch_task")
public class BatchTask extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "client_id", nullable = false)
    public UUID clientId;

    @Column(name = "campaign_id", nullable = false)
    public String campaignId;

    @Column(name = "template_id", nullable = false)
    public UUID templateId;

    @Column(name = "template_version", nullable = false)
    public int templateVersion;

    /** The template definition as media-service gave it when the task was accepted (JSON). */
    @Column(nullable = false)
    public String template;

    @Column(name = "file_name")
    public String fileName;

    @Column(name = "file_path", nullable = false)
    public String filePath;

    @Column(nullable = false)
    public int priority;

    @Column(name = "row_count", nullable = false)
    public int rowCount;

    @Column(name = "expected_output_duration", nullable = false)
    public int expectedOutputDuration;

    /** {@link BatchStatus#wire()}. */
    @Column(nullable = false)
    public String status;

    @Column(name = "total_count", nullable = false)
    public int totalCount;

    @Column(nullable = false)
    public int processed;

    @Column(nullable = false)
    public int succeeded;

    @Column(nullable = false)
    public String message;

    /** The output file, {@code <bucket>/<key>}; set when the task completes. */
    @Column(name = "output_path")
    public String outputPath;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    public BatchStatus status() {
        return BatchStatus.ofWire(status);
    }

    public void status(BatchStatus next, String message) {
        this.status = next.wire();
        this.message = message;
        this.updatedAt = Instant.now();
    }

    /** The client's own task, or null: another client's task reads as absent. */
    public static Uni<BatchTask> owned(UUID id, UUID clientId) {
        return BatchTask.<BatchTask>find("id = ?1 and clientId = ?2", id, clientId).firstResult();
    }
}
