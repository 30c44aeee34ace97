"""Every operation of docs/openapi.yaml: its method, its path template, and whether the document marks it
`x-pmedia-idempotent: true`. Generated from the document (sdk/python/templates/operations.mustache); never edited by
hand. pmedia_client.client reads it to decide which requests are sent again after a 429 or 503.
"""
from typing import NamedTuple, Tuple


class ContractOperation(NamedTuple):
    operation_id: str
    method: str
    path: str
    """The path template, e.g. `/templates/{templateId}/preview`."""
    marked_idempotent: bool
    """`x-pmedia-idempotent: true`: a POST (or PATCH) that is safe to send twice. GET, HEAD, PUT and DELETE are
    idempotent by HTTP and are not marked."""


CONTRACT_OPERATIONS: Tuple[ContractOperation, ...] = (
    ContractOperation("campaign_analytics", "GET", "/analytics/campaigns/{campaignId}", False),
    ContractOperation("campaign_videos_csv", "GET", "/analytics/campaigns/{campaignId}/videos.csv", False),
    ContractOperation("template_analytics", "GET", "/analytics/templates/{templateId}", False),
    ContractOperation("video_analytics", "GET", "/analytics/videos/{transactionId}", False),
    ContractOperation("create_token", "POST", "/auth/token", True),
    ContractOperation("get_account", "GET", "/account", False),
    ContractOperation("get_jwks", "GET", "/.well-known/jwks.json", False),
    ContractOperation("get_token_earlier_form", "GET", "/getToken", False),
    ContractOperation("cancel_task", "POST", "/media/task/cancel/{taskId}", False),
    ContractOperation("create_task", "POST", "/media/task/create", False),
    ContractOperation("create_task_upload", "POST", "/media/task/uploads", True),
    ContractOperation("get_task_status", "GET", "/media/task/status/{taskId}", False),
    ContractOperation("list_tasks", "GET", "/media/tasks", False),
    ContractOperation("get_campaign_schedule", "GET", "/campaigns/{campaign_id}/schedule", False),
    ContractOperation("list_campaigns", "GET", "/campaigns", False),
    ContractOperation("schedule_campaign", "POST", "/campaigns/{campaign_id}/schedule", False),
    ContractOperation("create_client", "POST", "/admin/clients", False),
    ContractOperation("delete_client", "DELETE", "/admin/clients/{clientId}", False),
    ContractOperation("get_any_template", "GET", "/admin/templates/{useCaseId}", False),
    ContractOperation("get_client", "GET", "/admin/clients/{clientId}", False),
    ContractOperation("list_all_templates", "GET", "/admin/templates", False),
    ContractOperation("list_clients", "GET", "/admin/clients", False),
    ContractOperation("list_dead_letters", "GET", "/admin/webhooks/dead-letters", False),
    ContractOperation("list_fonts", "GET", "/admin/fonts", False),
    ContractOperation("list_shared_motions", "GET", "/admin/motions", False),
    ContractOperation("list_usage", "GET", "/admin/usage", False),
    ContractOperation("register_font", "POST", "/admin/fonts", False),
    ContractOperation("register_shared_motion", "POST", "/admin/motions", False),
    ContractOperation("register_template", "POST", "/admin/templates", False),
    ContractOperation("replay_dead_letter", "POST", "/admin/webhooks/dead-letters/{deliveryId}/replay", False),
    ContractOperation("rotate_client_api_key", "POST", "/admin/clients/{clientId}/rotate-api-key", False),
    ContractOperation("rotate_client_secret", "POST", "/admin/clients/{clientId}/rotate-secret", False),
    ContractOperation("rotate_client_webhook_secret", "POST", "/admin/clients/{clientId}/rotate-webhook-secret", False),
    ContractOperation("update_client", "PATCH", "/admin/clients/{clientId}", False),
    ContractOperation("create_media", "POST", "/media/demo", True),
    ContractOperation("create_video_earlier_form", "POST", "/video/demo", True),
    ContractOperation("get_media_status", "GET", "/status/{transactionId}", False),
    ContractOperation("get_request_timeline", "GET", "/media/requests/{transactionId}/events", False),
    ContractOperation("list_media_requests", "GET", "/media/requests", False),
    ContractOperation("revoke_share", "DELETE", "/media/{transactionId}/share", False),
    ContractOperation("record_viewer_event", "POST", "/v/{shareId}/events", False),
    ContractOperation("share_captions", "GET", "/v/{shareId}/captions.vtt", False),
    ContractOperation("share_email_gif", "GET", "/v/{shareId}/email.gif", False),
    ContractOperation("share_page", "GET", "/v/{shareId}", False),
    ContractOperation("share_page_embed", "GET", "/v/{shareId}/embed", False),
    ContractOperation("share_poster", "GET", "/v/{shareId}/poster.jpg", False),
    ContractOperation("share_render_retry", "POST", "/v/{shareId}/render", False),
    ContractOperation("share_render_state", "GET", "/v/{shareId}/state", False),
    ContractOperation("share_video", "GET", "/v/{shareId}/video.mp4", False),
    ContractOperation("get_template", "GET", "/templates/{templateId}", False),
    ContractOperation("list_motions", "GET", "/motions", False),
    ContractOperation("list_templates", "GET", "/templates", False),
    ContractOperation("preview_template", "POST", "/templates/{templateId}/preview", True),
    ContractOperation("register_motion", "POST", "/motions", False),
    ContractOperation("register_own_template", "POST", "/templates", False),
    ContractOperation("get_usage", "GET", "/usage", False),
    ContractOperation("create_try_on", "POST", "/vton/request", False),
    ContractOperation("get_try_on_status", "GET", "/vton/status/{requestId}", False),
    ContractOperation("list_try_ons", "GET", "/vton/requests", False),
    ContractOperation("get_webhook_endpoint", "GET", "/webhooks/endpoint", False),
    ContractOperation("list_webhook_deliveries", "GET", "/webhooks/deliveries", False),
    ContractOperation("recover_webhook_deliveries", "POST", "/webhooks/deliveries/recover", False),
    ContractOperation("replace_webhook_endpoint", "PUT", "/webhooks/endpoint", False),
    ContractOperation("replay_webhook_delivery", "POST", "/webhooks/deliveries/{deliveryId}/replay", False),
    ContractOperation("rotate_webhook_endpoint_secret", "POST", "/webhooks/endpoint/rotate-secret", False),
    ContractOperation("test_webhook", "POST", "/webhooks/test", False),
    ContractOperation("test_webhook_endpoint", "POST", "/webhooks/endpoint/test", False),
)
