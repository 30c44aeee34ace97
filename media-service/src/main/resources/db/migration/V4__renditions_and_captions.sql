-- The outputs of a render beyond its video (name -> object key, JSON) and its WebVTT captions (issue 14).
-- Expand only: older replicas neither read nor write them.
ALTER TABLE media_request ADD COLUMN renditions text;
ALTER TABLE media_request ADD COLUMN captions_key text;
