package io.pmedia.batch;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.DynamicUpdate;

import io.pmedia.events.BatchStatus;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A batch task (interface 2.8): the rows of one input file, rendered with one pinned template version. */
@Entity
@Table(name = "batch_task")
// Only the columns a transaction changed are written: counters move with single statements beside the entity.
@DynamicUpdate
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

    /** The input file as {@code s3://<bucket>/<key>}, a key of the vendor's own namespace. */
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

    /** The output file's key (in the vendor's {@code batch/<client-id>/} namespace); set when the task ends. */
    @Column(name = "output_key")
    public String outputKey;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /** The deadline: acceptance + {@code expected-output-duration} minutes (docs/batch.md, "Deadlines"). */
    @Column(name = "due_at", nullable = false)
    public Instant dueAt;

    /** When its rows were stored and it went {@code IN PROGRESS}; its pace is measured from here. */
    @Column(name = "started_at")
    public Instant startedAt;

    /** Rows that failed while the file was read (in {@link #processed} from the start, not in the pace). */
    @Column(name = "failed_on_read", nullable = false)
    public int failedOnRead;

    /** What reading the file found worth saying (rows beyond {@code row-count}, unused columns), or null. */
    @Column
    public String notes;

    /** Ended with rows whose outcomes are still to be written to the output file. */
    @Column(name = "output_due", nullable = false)
    public boolean outputDue;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** The random key its rows' share ids are derived from (docs/sharing.md); never shown. */
    @Column(name = "share_key")
    public byte[] shareKey;

    /** When its videos' retention ends: their share links stop and their objects are deleted. */
    @Column(name = "expires_at")
    public Instant expiresAt;

    /** When the retention sweep deleted its rows' objects; null while they are kept. */
    @Column(name = "videos_deleted_at")
    public Instant videosDeletedAt;

    /**
     * {@link io.pmedia.events.RenderMode#wire()}: rendered at once, or each row on its link's first view. What the task
     * runs as: {@link #renderAsked}, else its campaign's render, fixed when its file is read (until then it follows the
     * campaign's events).
     */
    @Column(nullable = false)
    public String render = io.pmedia.events.RenderMode.NOW.wire();

    /** Whether its template is the operator's (shared): whose motions the template names. Null: created before. */
    @Column(name = "template_shared")
    public Boolean templateShared;

    /** The task's own {@code render} field; null when it said none and follows its campaign's. */
    @Column(name = "render_asked")
    public String renderAsked;

    /** On view: rows whose link was opened (a render asked for). Counters moved by statements only. */
    @Column(insertable = false, updatable = false)
    public int viewed;

    /** On view: renders that ended with a video. */
    @Column(insertable = false, updatable = false)
    public int rendered;

    /** On view: renders that failed (each retry that fails again counts again). */
    @Column(name = "render_failed", insertable = false, updatable = false)
    public int renderFailed;

    // Written only by the statements of repository/ (leases, progress reports); mapped because every query of tasks
    // reads whole rows, never written from the entity.

    @Column(name = "lease_token", insertable = false, updatable = false)
    public UUID leaseToken;

    @Column(name = "lease_until", insertable = false, updatable = false)
    public Instant leaseUntil;

    @Column(name = "reported_at", insertable = false, updatable = false)
    public Instant reportedAt;

    @Column(name = "reported_processed", insertable = false, updatable = false)
    public int reportedProcessed;

    public boolean onView() {
        return io.pmedia.events.RenderMode.ON_VIEW.wire().equals(render);
    }

    /** It runs as its campaign renders, not as it asked. */
    public boolean renderOfCampaign() {
        return renderAsked == null;
    }

    public BatchStatus status() {
        return BatchStatus.ofWire(status);
    }

    public void status(BatchStatus next, String message) {
        this.status = next.wire();
        this.message = message;
        this.updatedAt = Instant.now();
    }
}
