package io.pmedia.media;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** One version of a template (use case); the highest version of a use case is its current one. */
@Entity
@Table(name = "template_version")
public class TemplateVersion extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "template_id", nullable = false)
    public UUID templateId;

    /** The vendor that registered it (POST /templates) and alone may use it; null for a shared template. */
    @Column(name = "owner_client_id")
    public UUID ownerClientId;

    @Column(name = "use_case_id", nullable = false)
    public String useCaseId;

    @Column(nullable = false)
    public int version;

    @Column(nullable = false)
    public String name;

    public String description;

    /** The TemplateDefinition as registered (JSON). */
    @Column(nullable = false)
    public String definition;

    @Column(name = "definition_hash", nullable = false)
    public String definitionHash;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
