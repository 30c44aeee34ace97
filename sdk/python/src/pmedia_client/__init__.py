"""pmedia-client: the pmedia API for Python 3.9+.

The operations and models generated from docs/openapi.yaml are the package ``pmedia_client.generated`` (never edited);
this package is the small hand-written layer on top: ``PmediaClient`` (tokens, retries, waiting, uploads),
``verify_webhook`` (every event type, typed) and the errors, all under ``PmediaError``.
"""
from pmedia_client.generated.models.media_data import MediaData
from pmedia_client.generated.models.media_request import MediaRequest
from pmedia_client.generated.models.media_status import MediaStatus
from pmedia_client.generated.models.task_create_request import TaskCreateRequest
from pmedia_client.generated.models.task_status import TaskStatus

from .client import PmediaClient, RetryPolicy, idempotent
from .errors import (BadRequestError, ConflictError, NotFoundError, PmediaApiError, PmediaError, RateLimitedError,
                     RenderFailedError, ServiceUnavailableError, TaskFailedError, UnauthorizedError, WaitTimeoutError,
                     WebhookVerificationError)
from .webhooks import (BatchTaskEndedEvent, EngagementEvent, EngagementWebhookEvent, RenderEvent, RenderWebhookEvent,
                       TryOnRequestEndedEvent, VideoPushEvent, WebhookEvent, verify_webhook)

__all__ = ["PmediaClient", "RetryPolicy", "idempotent", "MediaData", "MediaRequest", "MediaStatus",
           "TaskCreateRequest", "TaskStatus", "PmediaError", "PmediaApiError", "BadRequestError", "UnauthorizedError",
           "NotFoundError", "ConflictError", "RateLimitedError", "ServiceUnavailableError", "RenderFailedError",
           "TaskFailedError", "WaitTimeoutError", "WebhookVerificationError", "verify_webhook", "WebhookEvent",
           "VideoPushEvent", "BatchTaskEndedEvent", "TryOnRequestEndedEvent", "EngagementWebhookEvent",
           "EngagementEvent", "RenderWebhookEvent", "RenderEvent"]
