-- Live gateway replicas, each renewing its row every few seconds: a replica enforces its share of a vendor's API
-- rate limit (the limit divided by the replicas alive), so the limit holds for the cluster without a database round
-- trip per request (docs/security.md).
CREATE TABLE gateway_replica (
    id      UUID PRIMARY KEY,
    seen_at TIMESTAMPTZ NOT NULL
);
