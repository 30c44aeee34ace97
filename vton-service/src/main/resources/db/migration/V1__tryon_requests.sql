-- A virtual try-on request (interface 2.9) and its work state (docs/vton.md).
CREATE TABLE tryon_request (
    id                uuid PRIMARY KEY,
    client_id         uuid        NOT NULL,
    user_id           text        NOT NULL,
    usecase_id        text        NOT NULL,
    model_image       text        NOT NULL,
    garment_images    text        NOT NULL,
    category          text        NOT NULL,
    mode              text        NOT NULL,
    moderation_level  text        NOT NULL,
    segmentation_free boolean     NOT NULL,
    output_format     text        NOT NULL,
    engine            text        NOT NULL,
    status            text        NOT NULL,
    message           text,
    output_key        text,
    attempts          integer     NOT NULL DEFAULT 0,
    lease_until       timestamptz,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL
);
CREATE INDEX tryon_request_due ON tryon_request (created_at) WHERE status = 'PROCESSING';
