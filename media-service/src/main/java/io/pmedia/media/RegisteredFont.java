package io.pmedia.media;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A font an operator registered ({@code POST /admin/fonts}); templates name it by {@code name}. */
@Entity
@Table(name = "font")
public class RegisteredFont extends PanacheEntityBase {

    @Id
    public String name;

    /** The family the file itself declares, for people reading the list. */
    @Column(nullable = false)
    public String family;

    /** {@code ttf} or {@code otf}. */
    @Column(nullable = false)
    public String format;

    @Column(name = "object_key", nullable = false)
    public String objectKey;

    @Column(nullable = false)
    public String sha256;

    @Column(name = "size_bytes", nullable = false)
    public long sizeBytes;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
