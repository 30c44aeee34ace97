package io.pmedia.media;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.pmedia.events.MediaStatus;
import io.pmedia.events.RenderMode;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A realtime media request (interface 2.3/2.4) and where its render stands. */
@Entity
@Table(name = "media_request")
public class MediaRequest extends PanacheEntityBase {

    /** The {@code service-request-id}. */
    @Id
    public UUID id;

    @Column(name = "client_id", nullable = false)
    public UUID clientId;

    @Column(name = "client_request_id", nullable = false)
    public String clientRequestId;

    @Column(name = "request_hash", nullable = false)
    public String requestHash;

    @Convert(converter = RequestForm.Column.class)
    @Column(nullable = false)
    public RequestForm form;

    @Column(name = "customer_id")
    public String customerId;

    @Column(name = "user_id")
    public String userId;

    @Column(name = "use_case_id", nullable = false)
    public String useCaseId;

    @Column(name = "reference_record_id")
    public String referenceRecordId;

    @Column(name = "template_id")
    public UUID templateId;

    @Column(name = "template_version")
    public Integer templateVersion;

    /** The RenderInput as JSON, so the render can be submitted again. */
    @Column(name = "render_input")
    public String renderInput;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public MediaStatus status;

    public String message;

    @Enumerated(EnumType.STRING)
    @Column(name = "accept_status", nullable = false)
    public AcceptanceStatus acceptStatus;

    @Column(name = "accept_message", nullable = false)
    public String acceptMessage;

    @Column(name = "video_key")
    public String videoKey;

    @Column(name = "thumbnail_key")
    public String thumbnailKey;

    /** Every output of the template by name (the first is the video), as a JSON object of object keys. */
    public String renditions;

    @Column(name = "captions_key")
    public String captionsKey;

    @Column(name = "duration_seconds")
    public Double durationSeconds;

    @Column(name = "render_millis")
    public Long renderMillis;

    @Column(nullable = false)
    public int attempts;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Column(name = "completed_at")
    public Instant completedAt;

    /** The share link's id (docs/sharing.md); null until the request ends SUCCESS. */
    @Column(name = "share_id")
    public String shareId;

    /** ACTIVE, REVOKED or EXPIRED (the closed set of {@code SharedVideo.State}); null without a link. */
    @Column(name = "share_state")
    public String shareState;

    /** The page as this request fills it: title, call to action, branding (JSON). */
    @Column(name = "share_page")
    public String sharePage;

    /** When the video's retention ends: its objects are deleted and its link answers 404. */
    @Column(name = "expires_at")
    public Instant expiresAt;

    public Integer width;

    public Integer height;

    /** Rendered at once, or when its share link is first opened (docs/sharing.md, "Render on first view"). */
    @Convert(converter = RenderModeColumn.class)
    @Column(nullable = false)
    public RenderMode render = RenderMode.NOW;

    /** When the first open (or the owner's status read) claimed the render of an on-view request; null before. */
    @Column(name = "render_claimed_at")
    public Instant renderClaimedAt;

    /**
     * When the claimed render of an on-view request was admitted onto the realtime lane (its job published); null
     * while it waits for a render slot, or before its claim.
     */
    @Column(name = "render_admitted_at")
    public Instant renderAdmittedAt;

    /** An on-view request whose render job is not out yet: nobody opened it, or its claim waits for admission. */
    public boolean awaitsRender() {
        return render == RenderMode.ON_VIEW && renderAdmittedAt == null && status == MediaStatus.PROCESSING;
    }

    /** An on-view request nobody opened yet: it has its link and no render job. */
    public boolean awaitsView() {
        return render == RenderMode.ON_VIEW && renderClaimedAt == null && status == MediaStatus.PROCESSING;
    }
}
