-- GET /campaigns (issue 22): one client's campaigns newest first, keyset-paginated on (created_at, id).
CREATE INDEX campaign_schedule_client_list ON campaign_schedule (client_id, created_at DESC, id DESC);
