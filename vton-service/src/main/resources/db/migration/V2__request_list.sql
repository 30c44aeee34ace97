-- GET /vton/requests (issue 22): one client's try-on requests newest first, keyset-paginated on (created_at, id).
CREATE INDEX tryon_request_client_list ON tryon_request (client_id, created_at DESC, id DESC);
