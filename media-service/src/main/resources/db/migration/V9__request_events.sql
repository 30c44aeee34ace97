-- A realtime request's timeline (GET /media/requests/{id}/events; the console's request page): every status it
-- published, every render job submitted for it, and what happened to its share link, written in the transaction of
-- the change (as its outbox event is). No foreign key: an event may be written in the transaction that creates its
-- request, before Hibernate flushes the request's row (requests are never deleted).
CREATE TABLE media_request_event (
    id         bigserial   PRIMARY KEY,
    request_id uuid        NOT NULL,
    at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    kind       text        NOT NULL CHECK (kind IN ('status', 'render-job', 'share')),
    status     text,
    message    text
);
CREATE INDEX media_request_event_request ON media_request_event (request_id, id);
