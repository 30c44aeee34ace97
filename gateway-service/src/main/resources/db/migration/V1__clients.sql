-- Vendors (clients) onboarded by the operator. Secrets are stored as hashes only: the client secret with
-- PBKDF2-HMAC-SHA256, the API key with SHA-256 (it is random and long, so a fast hash is enough and allows lookup).
-- The webhook secret is kept as issued, because the notifier must sign with it.
CREATE TABLE client (
    id                          UUID PRIMARY KEY,
    name                        TEXT        NOT NULL,
    secret_hash                 TEXT        NOT NULL,
    api_key_hash                TEXT        NOT NULL UNIQUE,
    webhook_url                 TEXT,
    webhook_secret              TEXT        NOT NULL,
    previous_webhook_secret     TEXT,
    previous_webhook_expires_at TIMESTAMPTZ,
    allowed_ips                 TEXT        NOT NULL DEFAULT '',
    created_at                  TIMESTAMPTZ NOT NULL,
    updated_at                  TIMESTAMPTZ NOT NULL,
    deleted_at                  TIMESTAMPTZ
);
