-- GET /media/tasks (issue 22): one client's tasks newest first, keyset-paginated on (created_at, id).
CREATE INDEX batch_task_client_list ON batch_task (client_id, created_at DESC, id DESC);
