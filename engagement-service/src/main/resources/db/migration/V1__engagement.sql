-- engagement-service (docs/sharing.md, docs/privacy.md): the projection of shareable videos, the raw viewer events
-- (kept pmedia.engagement.raw-retention), per-session state for counting each session once, and the rollups.

-- What a share page shows, from the VideoShared events of media-service and batch-service.
CREATE TABLE shared_video (
    share_id           text PRIMARY KEY,
    client_id          uuid        NOT NULL,
    source             text        NOT NULL CHECK (source IN ('realtime', 'batch')),
    service_request_id uuid,
    task_id            uuid,
    row_no             integer,
    campaign_id        text,
    template_id        uuid,
    template_version   integer,
    use_case_id        text,
    user_id            text,
    state              text        NOT NULL CHECK (state IN ('ACTIVE', 'REVOKED', 'EXPIRED')),
    title              text,
    cta_label          text,
    cta_url            text,
    logo_url           text,
    color              text,
    video_key          text,
    poster_key         text,
    captions_key       text,
    email_gif_key      text,
    width              integer,
    height             integer,
    duration_seconds   double precision,
    created_at         timestamptz,
    expires_at         timestamptz,
    updated_at         timestamptz NOT NULL
);
CREATE INDEX shared_video_request ON shared_video (client_id, service_request_id);
CREATE INDEX shared_video_template ON shared_video (client_id, template_id);
CREATE INDEX shared_video_campaign ON shared_video (client_id, campaign_id);

-- Raw viewer events, each counted once (its CloudEvents id); deleted after the raw retention.
CREATE TABLE viewer_event (
    event_id        uuid PRIMARY KEY,
    share_id        text        NOT NULL,
    kind            text        NOT NULL,
    session         text        NOT NULL,
    percent         integer,
    seconds_watched double precision,
    bot             boolean     NOT NULL,
    at              timestamptz NOT NULL,
    received_at     timestamptz NOT NULL
);
CREATE INDEX viewer_event_received ON viewer_event (received_at);

-- One page view: what it has done already, so each step counts once per session.
CREATE TABLE view_session (
    share_id        text        NOT NULL,
    session         text        NOT NULL,
    day             date        NOT NULL,
    viewed          boolean     NOT NULL DEFAULT false,
    played          boolean     NOT NULL DEFAULT false,
    max_percent     integer     NOT NULL DEFAULT 0,
    seconds_watched double precision NOT NULL DEFAULT 0,
    completed       boolean     NOT NULL DEFAULT false,
    clicked         boolean     NOT NULL DEFAULT false,
    bot             boolean     NOT NULL DEFAULT false,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (share_id, session)
);
CREATE INDEX view_session_updated ON view_session (updated_at);

-- The day's distinct visitors of a video (a daily-salted hash): only to count unique viewers; deleted after two days.
CREATE TABLE day_visitor (
    share_id text NOT NULL,
    day      date NOT NULL,
    visitor  text NOT NULL,
    PRIMARY KEY (share_id, day, visitor)
);

-- The salt of a day's visitor hashes, shared by the replicas; deleted after two days, so no hash can be recomputed.
CREATE TABLE visitor_salt (
    day  date PRIMARY KEY,
    salt bytea NOT NULL
);

-- Rollups per video and per video and day (templates and campaigns sum these by their videos).
CREATE TABLE video_rollup (
    share_id        text PRIMARY KEY,
    client_id       uuid             NOT NULL,
    views           bigint           NOT NULL DEFAULT 0,
    unique_viewers  bigint           NOT NULL DEFAULT 0,
    plays           bigint           NOT NULL DEFAULT 0,
    progress_25     bigint           NOT NULL DEFAULT 0,
    progress_50     bigint           NOT NULL DEFAULT 0,
    progress_75     bigint           NOT NULL DEFAULT 0,
    completions     bigint           NOT NULL DEFAULT 0,
    cta_clicks      bigint           NOT NULL DEFAULT 0,
    bot_views       bigint           NOT NULL DEFAULT 0,
    percent_sum     bigint           NOT NULL DEFAULT 0,
    seconds_watched double precision NOT NULL DEFAULT 0,
    first_view_at   timestamptz,
    last_view_at    timestamptz
);

CREATE TABLE video_day_rollup (
    share_id        text             NOT NULL,
    day             date             NOT NULL,
    client_id       uuid             NOT NULL,
    views           bigint           NOT NULL DEFAULT 0,
    unique_viewers  bigint           NOT NULL DEFAULT 0,
    plays           bigint           NOT NULL DEFAULT 0,
    progress_25     bigint           NOT NULL DEFAULT 0,
    progress_50     bigint           NOT NULL DEFAULT 0,
    progress_75     bigint           NOT NULL DEFAULT 0,
    completions     bigint           NOT NULL DEFAULT 0,
    cta_clicks      bigint           NOT NULL DEFAULT 0,
    bot_views       bigint           NOT NULL DEFAULT 0,
    percent_sum     bigint           NOT NULL DEFAULT 0,
    seconds_watched double precision NOT NULL DEFAULT 0,
    PRIMARY KEY (share_id, day)
);
CREATE INDEX video_day_rollup_client ON video_day_rollup (client_id, day);
