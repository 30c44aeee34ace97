-- Share links (docs/sharing.md): a request that ends SUCCESS gets an unguessable share id, a page (title, call to
-- action and branding as its request fills them), and the end of its retention, after which its objects are deleted
-- and its link answers 404. share_state: ACTIVE, REVOKED (the owner's DELETE /media/{id}/share) or EXPIRED.
ALTER TABLE media_request
    ADD COLUMN share_id    text,
    ADD COLUMN share_state text CHECK (share_state IN ('ACTIVE', 'REVOKED', 'EXPIRED')),
    ADD COLUMN share_page  text,
    ADD COLUMN expires_at  timestamptz,
    ADD COLUMN width       integer,
    ADD COLUMN height      integer;
CREATE UNIQUE INDEX media_request_share_id ON media_request (share_id) WHERE share_id IS NOT NULL;
-- The retention sweep's claim: active links past their end, oldest first.
CREATE INDEX media_request_expiring ON media_request (expires_at) WHERE share_state = 'ACTIVE';
