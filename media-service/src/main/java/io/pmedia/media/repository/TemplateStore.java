package io.pmedia.media.repository;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.pmedia.media.TemplateVersion;
import io.smallrye.mutiny.Uni;

/**
 * Template versions in PostgreSQL. A use case's current version is its highest; every method runs in the caller's
 * reactive session.
 */
@ApplicationScoped
public class TemplateStore {

    private static final String CURRENT_OF_USE_CASE = """
            SELECT * FROM template_version
             WHERE use_case_id = ?1
             ORDER BY version DESC
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
             WHERE use_case_id = ?1 AND version = ?2
            """;

    private static final String ALL_CURRENT = """
            SELECT * FROM template_version v
             WHERE v.version = (SELECT max(t.version) FROM template_version t WHERE t.use_case_id = v.use_case_id)
             ORDER BY v.use_case_id
            """;

    /** The current version of a use case, or a null item. */
    public Uni<TemplateVersion> current(String useCaseId) {
        return NativeSql.one(TemplateVersion.class, CURRENT_OF_USE_CASE, useCaseId);
    }

    /** The current version of a template, or a null item. */
    public Uni<TemplateVersion> currentOfTemplate(UUID templateId) {
        return NativeSql.one(TemplateVersion.class, CURRENT_OF_TEMPLATE, templateId);
    }

    /** One version of a use case, or a null item. */
    public Uni<TemplateVersion> version(String useCaseId, int version) {
        return NativeSql.one(TemplateVersion.class, VERSION, useCaseId, version);
    }

    /** The current version of every use case, by use case. */
    public Uni<List<TemplateVersion>> allCurrent() {
        return NativeSql.list(TemplateVersion.class, ALL_CURRENT);
    }
}
