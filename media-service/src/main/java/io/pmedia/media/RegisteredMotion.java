package io.pmedia.media;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * A Lottie file registered for templates' lottie layers: a vendor's own ({@code POST /motions}, {@code owner} its
 * client id) or shared ({@code POST /admin/motions}, {@code owner} null). Templates name it by {@code name}.
 */
@Entity
@Table(name = "motion")
public class RegisteredMotion extends PanacheEntityBase {

    @Id
    public UUID id;

    public UUID owner;

    @Column(nullable = false)
    public String name;

    @Column(name = "object_key", nullable = false)
    public String objectKey;

    @Column(nullable = false)
    public String sha256;

    @Column(name = "size_bytes", nullable = false)
    public long sizeBytes;

    /** What the check found in the file, as JSON ({@link io.pmedia.media.template.MotionFacts}). */
    @Column(nullable = false)
    public String facts;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
