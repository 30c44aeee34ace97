package io.pmedia.vton;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.pmedia.events.TryOnStatus;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

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

    @Convert(converter = GarmentCategory.Column.class)
    @Column(nullable = false)
    public GarmentCategory category;

    @Convert(converter = TryOnMode.Column.class)
    @Column(nullable = false)
    public TryOnMode mode;

    @Convert(converter = ModerationLevel.Column.class)
    @Column(name = "moderation_level", nullable = false)
    public ModerationLevel moderationLevel;

    @Column(name = "segmentation_free", nullable = false)
    public boolean segmentationFree;

    @Convert(converter = OutputFormat.Column.class)
    @Column(name = "output_format", nullable = false)
    public OutputFormat outputFormat;

    /** The engine it was accepted for. */
    @Convert(converter = EngineKind.Column.class)
    @Column(nullable = false)
    public EngineKind engine;

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
}
