package io.pmedia.media.repository;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.pmedia.media.TemplateVersion;
import io.smallrye.mutiny.Uni;

/**
 * Template versions in PostgreSQL. A template is shared (no owner, registered by the operator) or a vendor's own; a
 * use case's current version is its highest among the templates of one owner. Every method runs in the caller's
 * reactive session.
 */
@ApplicationScoped
public class TemplateStore {

    private static final String CURRENT_SHARED = """
            SELECT * FROM template_version
             WHERE use_case_id = ?1 AND owner_client_id IS NULL
             ORDER BY version DESC
             LIMIT 1
            """;

    private static final String CURRENT_OWNED = """
            SELECT * FROM template_version
             WHERE use_case_id = ?1 AND owner_client_id = ?2
             ORDER BY version DESC
             LIMIT 1
            """;

    /** What a use-case-id names for a client: its own template first, then the shared one. */
    private static final String CURRENT_FOR_CLIENT = """
            SELECT * FROM template_version
             WHERE use_case_id = ?1 AND (owner_client_id = ?2 OR owner_client_id IS NULL)
             ORDER BY owner_client_id IS NULL, version DESC
             LIMIT 1
            """;

    /** The template id is stable across a use case's versions. */
    private static final String CURRENT_OF_TEMPLATE = """
            SELECT * FROM template_version
             WHERE template_id = ?1
             ORDER BY version DESC
             LIMIT 1
            """;

    /** The version a request was accepted with: what its render is submitted again with. */
    private static final String VERSION = """
            SELECT * FROM template_version
             WHERE template_id = ?1 AND version = ?2
            """;

    private static final String ALL_CURRENT = """
            SELECT * FROM template_version v
             WHERE v.version = (SELECT max(t.version) FROM template_version t WHERE t.template_id = v.template_id)
             ORDER BY v.owner_client_id NULLS FIRST, v.use_case_id
            """;

    /** The current shared and own templates of one client (a shared one its own shadows is left out). */
    private static final String CURRENT_FOR_CLIENT_ALL = """
            SELECT * FROM template_version v
             WHERE (v.owner_client_id = ?1 OR v.owner_client_id IS NULL)
               AND v.version = (SELECT max(t.version) FROM template_version t WHERE t.template_id = v.template_id)
               AND NOT (v.owner_client_id IS NULL AND EXISTS (SELECT 1 FROM template_version o
                        WHERE o.owner_client_id = ?1 AND o.use_case_id = v.use_case_id))
             ORDER BY v.use_case_id
            """;

    /** The current version of a shared use case, or a null item. */
    public Uni<TemplateVersion> currentShared(String useCaseId) {
        return NativeSql.one(TemplateVersion.class, CURRENT_SHARED, useCaseId);
    }

    /** The current version of a client's own use case, or a null item. */
    public Uni<TemplateVersion> currentOwned(String useCaseId, UUID owner) {
        return NativeSql.one(TemplateVersion.class, CURRENT_OWNED, useCaseId, owner);
    }

    /** The current version a use-case-id names for a client (its own before a shared one), or a null item. */
    public Uni<TemplateVersion> currentFor(String useCaseId, UUID clientId) {
        return NativeSql.one(TemplateVersion.class, CURRENT_FOR_CLIENT, useCaseId, clientId);
    }

    /** The current version of a template, or a null item. */
    public Uni<TemplateVersion> currentOfTemplate(UUID templateId) {
        return NativeSql.one(TemplateVersion.class, CURRENT_OF_TEMPLATE, templateId);
    }

    /** One version of a template, or a null item. */
    public Uni<TemplateVersion> version(UUID templateId, int version) {
        return NativeSql.one(TemplateVersion.class, VERSION, templateId, version);
    }

    /** The current version of every template, shared ones first. */
    public Uni<List<TemplateVersion>> allCurrent() {
        return NativeSql.list(TemplateVersion.class, ALL_CURRENT);
    }

    /** The current versions a client sees: its own, and the shared ones it does not shadow. */
    public Uni<List<TemplateVersion>> currentFor(UUID clientId) {
        return NativeSql.list(TemplateVersion.class, CURRENT_FOR_CLIENT_ALL, clientId);
    }
}
