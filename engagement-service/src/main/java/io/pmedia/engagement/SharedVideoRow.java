package io.pmedia.engagement;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * A shareable video as its page shows it: the projection of media-service's and batch-service's {@code VideoShared}
 * events (docs/sharing.md). {@code state} ACTIVE plays; REVOKED and EXPIRED answer the same 404 as an unknown id.
 */
@Entity
@Table(name = "shared_video")
public class SharedVideoRow extends PanacheEntityBase {

    @Id
    @Column(name = "share_id")
    public String shareId;

    @Column(name = "client_id", nullable = false)
    public UUID clientId;

    @Column(nullable = false)
    public String source;

    @Column(name = "service_request_id")
    public UUID serviceRequestId;

    @Column(name = "task_id")
    public UUID taskId;

    @Column(name = "row_no")
    public Integer rowNo;

    @Column(name = "campaign_id")
    public String campaignId;

    @Column(name = "template_id")
    public UUID templateId;

    @Column(name = "template_version")
    public Integer templateVersion;

    @Column(name = "use_case_id")
    public String useCaseId;

    @Column(name = "user_id")
    public String userId;

    @Column(nullable = false)
    public String state;

    public String title;

    @Column(name = "cta_label")
    public String ctaLabel;

    @Column(name = "cta_url")
    public String ctaUrl;

    @Column(name = "logo_url")
    public String logoUrl;

    public String color;

    @Column(name = "video_key")
    public String videoKey;

    @Column(name = "poster_key")
    public String posterKey;

    @Column(name = "captions_key")
    public String captionsKey;

    @Column(name = "email_gif_key")
    public String emailGifKey;

    public Integer width;

    public Integer height;

    @Column(name = "duration_seconds")
    public Double durationSeconds;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "expires_at")
    public Instant expiresAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** {@link io.pmedia.events.SharedVideo.Render#wire()}: rendered on first view, or that render failed; else null. */
    public String render;

    /** When an open claimed its render on view (null: not yet claimed). */
    @Column(name = "render_requested_at")
    public Instant renderRequestedAt;

    /** Claims of its render on view so far (the first open, then retries). */
    @Column(name = "render_attempts", nullable = false)
    public int renderAttempts;

    /**
     * The HLS playlist its render on view writes while it runs, named by its owner ({@code RenderJob.STREAM_PLAYLIST}
     * under the render's outputs): its page plays it before the video is ready. Null for a video rendered as asked.
     */
    @Column(name = "stream_key")
    public String streamKey;

    /** Rendered on first view and not rendered yet: an open asks for it (the page says "being prepared"). */
    public boolean awaitsRender() {
        return videoKey == null && render != null;
    }

    /** Its render on view failed: the page shows its error state and a retry. */
    public boolean renderFailed() {
        return videoKey == null && "failed".equals(render);
    }

    /** Whether its page plays now: active and within its retention. */
    public boolean live(Instant now) {
        return "ACTIVE".equals(state) && (expiresAt == null || expiresAt.isAfter(now));
    }
}
