-- Lottie files registered for templates' lottie layers (POST /motions by a vendor, its own; POST /admin/motions by
-- the operator, shared by every template; contracts.md 2026-11-29, issue 36). owner is the vendor's client id, or
-- null for a shared motion; a name keeps its file within its owner, so render workers cache motions by key. What the
-- check found in the file (its canvas, frames, placeholders and warnings) is kept for listings and for checking the
-- templates that name it without reading the file again.
CREATE TABLE motion (
    id           uuid PRIMARY KEY,
    owner        uuid,
    name         text        NOT NULL,
    object_key   text        NOT NULL,
    sha256       text        NOT NULL,
    size_bytes   bigint      NOT NULL,
    facts        text        NOT NULL,
    created_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX motion_owner_name ON motion (coalesce(owner, '00000000-0000-0000-0000-000000000000'::uuid), name);
