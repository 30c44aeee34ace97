-- GET /media/requests (issue 22): one client's requests newest first, keyset-paginated on (created_at, id).
CREATE INDEX media_request_client_list ON media_request (client_id, created_at DESC, id DESC);
