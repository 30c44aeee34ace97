-- Vendor templates (POST /templates): a template owned by one client, usable by that client only. A null owner is a
-- shared template registered by the operator. Use case ids are unique per owner: a vendor's own template shadows a
-- shared one of the same use-case-id for that vendor only (docs/templates.md, "Vendor templates").
ALTER TABLE template_version ADD COLUMN owner_client_id UUID;

ALTER TABLE template_version DROP CONSTRAINT template_version_unique;
CREATE UNIQUE INDEX template_version_unique
    ON template_version (COALESCE(owner_client_id, '00000000-0000-0000-0000-000000000000'::uuid), use_case_id, version);
CREATE UNIQUE INDEX template_version_of_template ON template_version (template_id, version);
CREATE INDEX template_version_owner ON template_version (owner_client_id) WHERE owner_client_id IS NOT NULL;
