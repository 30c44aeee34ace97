-- Token buckets of the gateway's rate limits, shared by every replica (Bucket4j's PostgreSQL proxy manager, which
-- locks a row per bucket with SELECT ... FOR UPDATE). `state` is Bucket4j's serialized bucket; `expires_at` (epoch
-- milliseconds) is when a bucket is full again and may be deleted, so idle addresses and ids do not accumulate.
CREATE TABLE rate_limit_bucket (
    id         TEXT PRIMARY KEY,
    state      BYTEA,
    expires_at BIGINT
);

CREATE INDEX rate_limit_bucket_expires_at ON rate_limit_bucket (expires_at);
