package io.pmedia.vton;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.smallrye.mutiny.Uni;

/** A virtual try-on request (interface 2.9) and its work state. */
@Entity
@Table(name = "tryon_request")
public class TryOnRequest extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "client_id", nullable = false)
    public UUID clientId;

    @Column(name = "user_id", nullable = false)
    public String userId;

    @Column(name = "usecase_id", nullable = false)
    public String usecaseId;

    @Column(name = "model_image", nullable = false)
    public String modelImage;

    /** JSON array of URLs, applied in order. */
    @Column(name = "garment_images", nullable = false)
    public String garmentImages;

    @Column(nullable = false)
    public String category;

    @Column(nullable = false)
    public String mode;

    @Column(name = "moderation_level", nullable = false)
    public String moderationLevel;

    @Column(name = "segmentation_free", nullable = false)
    public boolean segmentationFree;

    @Column(name = "output_format", nullable = false)
    public String outputFormat;

    /** The engine it was accepted for ({@code builtin}, {@code fashn}). */
    @Column(nullable = false)
    public String engine;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public TryOnStatus status;

    public String message;

    @Column(name = "output_key")
    public String outputKey;

    @Column(nullable = false)
    public int attempts;

    @Column(name = "lease_until")
    public Instant leaseUntil;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** The client's own request, or null: another client's request reads as absent. */
    public static Uni<TryOnRequest> owned(UUID id, UUID clientId) {
        return TryOnRequest.<TryOnRequest>find("id = ?1 and clientId = ?2", id, clientId).firstResult();
    }
}
