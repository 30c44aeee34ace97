package io.pmedia.media.service;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.repository.CreateLock;
import io.pmedia.media.TemplateVersion;
import io.pmedia.media.repository.FontStore;
import io.pmedia.media.repository.TemplateStore;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateValidator;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;

/**
 * The templates (use cases) and their versions. Registering is idempotent: the same definition again is the
 * current version, a changed one becomes the next version of the same template-id. Registrations of one use case
 * take turns ({@link CreateLock}), so concurrent ones never race for a version number.
 */
@ApplicationScoped
public class TemplateCatalog {

    /** The outcome of a registration: the version now current, and whether this call created it. */
    public record Registered(TemplateVersion version, boolean created) {
    }

    private final ObjectMapper mapper;
    private final TemplateStore versions;
    private final FontStore fonts;
    private final MotionCatalog motions;
    private final Map<UUID, TemplateDefinition> parsed = new ConcurrentHashMap<>();

    public TemplateCatalog(ObjectMapper mapper, TemplateStore versions, FontStore fonts, MotionCatalog motions) {
        this.mapper = mapper;
        this.versions = versions;
        this.fonts = fonts;
        this.motions = motions;
    }

    /**
     * Registers the definition in {@code body} as a shared template (the operator's): unknown keys, wrong types and
     * broken rules are one 400 {@code VALIDATION_ERROR} listing every problem with its JSON path.
     */
    @WithTransaction
    @WithSpan
    public Uni<Registered> register(JsonNode body) {
        return validated(body, null).flatMap(definition -> CreateLock.take("template", "shared",
                definition.useCaseId())
                .flatMap(locked -> versions.currentShared(definition.useCaseId()))
                .flatMap(current -> next(current, definition, null)));
    }

    /**
     * Registers the definition in {@code body} as {@code owner}'s own template (POST /templates): the same validator
     * as the operator's; usable by that vendor only, so it names no {@code allowed-clients}.
     */
    @WithTransaction
    @WithSpan
    public Uni<Registered> registerOwned(JsonNode body, UUID owner) {
        return validated(body, owner).flatMap(definition -> {
            if (definition.allowedClients() != null && !definition.allowedClients().isEmpty()) {
                throw ApiException.validation("template is not valid: allowed-clients: a vendor's own template is"
                        + " usable by that vendor only; allowed-clients is for shared templates");
            }
            return CreateLock.take("template", owner, definition.useCaseId())
                    .flatMap(locked -> versions.currentOwned(definition.useCaseId(), owner))
                    .flatMap(current -> next(current, definition, owner));
        });
    }

    /**
     * The definition, checked with the registered fonts and the motions {@code owner}'s templates may name (null: a
     * shared template, the shared motions); 400 listing every problem.
     */
    private Uni<TemplateDefinition> validated(JsonNode body, UUID owner) {
        return fonts.names().flatMap(names -> motions.usableBy(owner).map(usable -> {
            TemplateValidator.Checked checked = TemplateValidator.check(body, mapper,
                    new TemplateValidator.Registered(Set.copyOf(names), usable));
            if (!checked.valid()) {
                throw ApiException.validation("template is not valid: " + String.join("; ", checked.problems()));
            }
            return checked.definition();
        }));
    }

    /** The same definition as the current version is that version; a changed one is the next version. */
    private Uni<Registered> next(TemplateVersion current, TemplateDefinition definition, UUID owner) {
        String hash = Canonical.hash(mapper, definition);
        if (current != null && current.definitionHash.equals(hash)) {
            return Uni.createFrom().item(new Registered(current, false));
        }
        TemplateVersion next = new TemplateVersion();
        next.id = UUID.randomUUID();
        next.templateId = current == null ? UUID.randomUUID() : current.templateId;
        next.ownerClientId = owner;
        next.useCaseId = definition.useCaseId();
        next.version = current == null ? 1 : current.version + 1;
        next.name = definition.name();
        next.description = definition.description();
        next.definition = json(definition);
        next.definitionHash = hash;
        next.createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return next.<TemplateVersion>persist().map(saved -> new Registered(saved, true));
    }

    @WithSession
    public Uni<List<TemplateVersion>> current() {
        return versions.allCurrent();
    }

    /** The current versions a client may render. */
    @WithSession
    public Uni<List<TemplateVersion>> availableTo(UUID clientId) {
        return versions.currentFor(clientId)
                .map(all -> all.stream().filter(version -> mayUse(version, clientId)).toList());
    }

    @WithSession
    public Uni<TemplateVersion> byUseCase(String useCaseId) {
        return versions.currentShared(useCaseId).onItem().ifNull()
                .failWith(() -> ApiException.notFound("template '" + useCaseId + "' not found"));
    }

    /** The current version of a template a client may render; 404 when absent or not the client's to use. */
    @WithSession
    public Uni<TemplateVersion> usableBy(UUID templateId, UUID clientId) {
        return versions.currentOfTemplate(templateId)
                .map(version -> version != null && mayUse(version, clientId) ? version : null)
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

    /**
     * A vendor's own template is usable by that vendor only; a shared one without {@code allowed-clients} by every
     * client, with it by the clients it names.
     */
    public boolean mayUse(TemplateVersion version, UUID clientId) {
        if (version.ownerClientId != null) {
            return version.ownerClientId.equals(clientId);
        }
        TemplateDefinition definition = definition(version);
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
