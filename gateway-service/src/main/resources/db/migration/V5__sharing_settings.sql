-- A vendor's share page settings (docs/sharing.md): how long its videos and their links live (null: the platform's
-- default), its branding (logo, accent colour) and the origins allowed to frame its embed player (space-separated).
ALTER TABLE client
    ADD COLUMN share_retention_days integer CHECK (share_retention_days BETWEEN 1 AND 3650),
    ADD COLUMN brand_logo_url       text,
    ADD COLUMN brand_color          text,
    ADD COLUMN embed_origins        text NOT NULL DEFAULT '';
