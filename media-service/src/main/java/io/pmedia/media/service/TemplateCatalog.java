package io.pmedia.media.service;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.error.ApiException;
import io.pmedia.media.TemplateVersion;
import io.pmedia.media.repository.TemplateStore;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateValidator;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;

/**
 * The templates (use cases) and their versions. Registering is idempotent: the same definition again is the
 * current version, a changed one becomes the next version of the same template-id.
 */
@ApplicationScoped
public class TemplateCatalog {

    /** The outcome of a registration: the version now current, and whether this call created it. */
    public record Registered(TemplateVersion version, boolean created) {
    }

    private final ObjectMapper mapper;
    private final TemplateStore versions;
    private final Map<UUID, TemplateDefinition> parsed = new ConcurrentHashMap<>();

    public TemplateCatalog(ObjectMapper mapper, TemplateStore versions) {
        this.mapper = mapper;
        this.versions = versions;
    }

    /**
     * Registers the definition in {@code body}: unknown keys, wrong types and broken rules are one 400
     * {@code VALIDATION_ERROR} listing every problem with its JSON path.
     */
    @WithTransaction
    public Uni<Registered> register(JsonNode body) {
        TemplateValidator.Checked checked = TemplateValidator.check(body, mapper);
        if (!checked.valid()) {
            throw ApiException.validation("template is not valid: " + String.join("; ", checked.problems()));
        }
        TemplateDefinition definition = checked.definition();
        String hash = Canonical.hash(mapper, definition);
        return versions.current(definition.useCaseId()).flatMap(current -> {
            if (current != null && current.definitionHash.equals(hash)) {
                return Uni.createFrom().item(new Registered(current, false));
            }
            TemplateVersion next = new TemplateVersion();
            next.id = UUID.randomUUID();
            next.templateId = current == null ? UUID.randomUUID() : current.templateId;
            next.useCaseId = definition.useCaseId();
            next.version = current == null ? 1 : current.version + 1;
            next.name = definition.name();
            next.description = definition.description();
            next.definition = json(definition);
            next.definitionHash = hash;
            next.createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
            return next.<TemplateVersion>persist().map(saved -> new Registered(saved, true));
        });
    }

    @WithSession
    public Uni<List<TemplateVersion>> current() {
        return versions.allCurrent();
    }

    /** The current versions a client may render. */
    @WithSession
    public Uni<List<TemplateVersion>> availableTo(UUID clientId) {
        return versions.allCurrent()
                .map(all -> all.stream().filter(version -> mayUse(definition(version), clientId)).toList());
    }

    @WithSession
    public Uni<TemplateVersion> byUseCase(String useCaseId) {
        return versions.current(useCaseId).onItem().ifNull()
                .failWith(() -> ApiException.notFound("template '" + useCaseId + "' not found"));
    }

    /** The current version of a template a client may render; 404 when absent or not the client's to use. */
    @WithSession
    public Uni<TemplateVersion> usableBy(UUID templateId, UUID clientId) {
        return versions.currentOfTemplate(templateId)
                .map(version -> version != null && mayUse(definition(version), clientId) ? version : null)
                .onItem().ifNull().failWith(() -> ApiException.notFound("template '" + templateId + "' not found"));
    }

    /** The definition of a stored version (parsed once). */
    public TemplateDefinition definition(TemplateVersion version) {
        return parsed.computeIfAbsent(version.id, id -> {
            try {
                return mapper.readValue(version.definition, TemplateDefinition.class);
            } catch (IOException e) {
                throw new IllegalStateException("stored template " + version.useCaseId + " is unreadable", e);
            }
        });
    }

    /** A template without {@code allowed-clients} is open to every client. */
    public static boolean mayUse(TemplateDefinition definition, UUID clientId) {
        return definition.allowedClients() == null || definition.allowedClients().isEmpty()
                || definition.allowedClients().contains(clientId);
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
