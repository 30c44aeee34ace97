-- Templates (use cases), versioned: registering a changed definition adds a version; a request renders with the
-- version current when it was accepted. template_id is stable across a use case's versions.
CREATE TABLE template_version (
    id              UUID PRIMARY KEY,
    template_id     UUID        NOT NULL,
    use_case_id     TEXT        NOT NULL,
    version         INT         NOT NULL,
    name            TEXT        NOT NULL,
    description     TEXT,
    definition      TEXT        NOT NULL,
    definition_hash TEXT        NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    CONSTRAINT template_version_unique UNIQUE (use_case_id, version)
);

CREATE INDEX template_version_template_id ON template_version (template_id);
