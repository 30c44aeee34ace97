-- Fonts an operator registered (POST /admin/fonts, issue 14): a template's text layer may name one. The file is in
-- the object store under object_key; a name is never given to another file (re-registering it with other bytes is
-- refused), so render workers cache fonts by name.
CREATE TABLE font (
    name        text PRIMARY KEY,
    family      text        NOT NULL,
    format      text        NOT NULL,
    object_key  text        NOT NULL,
    sha256      text        NOT NULL,
    size_bytes  bigint      NOT NULL,
    created_at  timestamptz NOT NULL
);
