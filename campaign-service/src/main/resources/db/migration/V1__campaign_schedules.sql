-- A campaign's schedule and lifecycle, scoped to the client that owns it (two vendors may both own "summer-sale").
-- next_transition_at is when the status changes next (start for SCHEDULED, end for ACTIVE, none for ENDED): the
-- scheduler claims due rows with FOR UPDATE SKIP LOCKED, so each transition fires once across replicas.
CREATE TABLE campaign_schedule (
    id                 UUID PRIMARY KEY,
    client_id          UUID        NOT NULL,
    campaign_id        TEXT        NOT NULL,
    start_time         TIMESTAMPTZ NOT NULL,
    end_time           TIMESTAMPTZ NOT NULL,
    status             TEXT        NOT NULL CHECK (status IN ('SCHEDULED', 'ACTIVE', 'ENDED')),
    next_transition_at TIMESTAMPTZ,
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL,
    CONSTRAINT campaign_schedule_owner UNIQUE (client_id, campaign_id),
    CONSTRAINT campaign_schedule_window CHECK (end_time > start_time)
);

CREATE INDEX campaign_schedule_due ON campaign_schedule (next_transition_at) WHERE next_transition_at IS NOT NULL;
