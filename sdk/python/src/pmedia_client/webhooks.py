"""Verifies the webhooks pmedia sends (Standard Webhooks: v1 HMAC-SHA256 over "{id}.{timestamp}.{body}" keyed with
the base64 part of the whsec_ secret, any of the signatures matching, a timestamp within five minutes) and reads each
as the event it is, for every event type of docs/webhooks.md and docs/asyncapi.yaml.

The type is read from the signed body; the unsigned webhook-event-type header, when present, must agree with it.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Dict, Literal, Mapping, Optional, Union

from pmedia_client.generated.models.task_status import TaskStatus
from pmedia_client.generated.models.try_on_status import TryOnStatus
from pmedia_client.generated.models.video_push import VideoPush

from .errors import WebhookVerificationError

TOLERANCE_SECONDS = 5 * 60


@dataclass(frozen=True)
class EngagementEvent:
    """What viewers did on a share page (docs/webhooks.md, "Engagement events"): the video's counters then."""
    event_type: Literal["video.viewed", "video.completed", "cta.clicked"]
    share_id: str
    transaction_id: Optional[str]
    task_id: Optional[str]
    row: Optional[int]
    campaign_id: Optional[str]
    user_id: Optional[str]
    views: int
    completions: int
    cta_clicks: int
    at: datetime


@dataclass(frozen=True)
class VideoPushEvent:
    """`video.push` (interface 2.7), or `test` (a test sent from the console or POST /webhooks/endpoint/test)."""
    type: Literal["video.push", "test"]
    webhook_id: str
    timestamp: datetime
    data: VideoPush


@dataclass(frozen=True)
class BatchTaskEndedEvent:
    """`batch.task.ended`: the 2.8 task status."""
    type: Literal["batch.task.ended"]
    webhook_id: str
    timestamp: datetime
    data: TaskStatus


@dataclass(frozen=True)
class TryOnRequestEndedEvent:
    """`tryon.request.ended`: the 2.9 status."""
    type: Literal["tryon.request.ended"]
    webhook_id: str
    timestamp: datetime
    data: TryOnStatus


@dataclass(frozen=True)
class EngagementWebhookEvent:
    """`video.viewed`, `video.completed` or `cta.clicked`."""
    type: Literal["video.viewed", "video.completed", "cta.clicked"]
    webhook_id: str
    timestamp: datetime
    data: EngagementEvent


WebhookEvent = Union[VideoPushEvent, BatchTaskEndedEvent, TryOnRequestEndedEvent, EngagementWebhookEvent]
"""A verified webhook; narrow it by `type` (or isinstance)."""

_ENGAGEMENT = ("video.viewed", "video.completed", "cta.clicked")


def verify_webhook(headers: Mapping[str, str], body: Union[str, bytes], secret: str,
                   now: Optional[float] = None) -> WebhookEvent:
    """Checks a webhook and reads it as the event it is.

    :param headers: the request's headers (any case): webhook-id, webhook-timestamp, webhook-signature,
        webhook-event-type
    :param body: the raw body exactly as received
    :param secret: the client's webhook secret, ``whsec_...``
    :raises WebhookVerificationError: when it does not verify or is no event pmedia sends
    """
    lower = {name.lower(): value for name, value in headers.items()}
    webhook_id = lower.get("webhook-id")
    stamp = lower.get("webhook-timestamp")
    signatures = lower.get("webhook-signature")
    if not webhook_id or not stamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    try:
        seconds = int(stamp)
    except ValueError as error:
        raise WebhookVerificationError(f"webhook-timestamp {stamp!r} is not a number") from error
    if abs((time.time() if now is None else now) - seconds) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("webhook-timestamp is more than five minutes away from now")
    text = body.decode("utf-8") if isinstance(body, bytes) else body
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    expected = base64.b64encode(hmac.new(key, f"{webhook_id}.{seconds}.{text}".encode("utf-8"), hashlib.sha256)
                                .digest()).decode("ascii")
    if not any(part.startswith("v1,") and hmac.compare_digest(part[3:], expected) for part in signatures.split()):
        raise WebhookVerificationError("no signature matches")
    try:
        payload = json.loads(text)
    except ValueError as error:
        raise WebhookVerificationError("the webhook verifies but its body is not JSON") from error
    if not isinstance(payload, dict):
        raise WebhookVerificationError("the webhook verifies but its body is not a JSON object")
    header = lower.get("webhook-event-type")
    kind = _type_of(payload, header)
    if header is not None and header != kind:
        raise WebhookVerificationError(f"the webhook-event-type header says {header} but the signed body is {kind}")
    at = datetime.fromtimestamp(seconds, tz=timezone.utc)
    if kind == "video.push" or kind == "test":
        return VideoPushEvent(kind, webhook_id, at, VideoPush.from_dict(payload))
    if kind == "batch.task.ended":
        return BatchTaskEndedEvent(kind, webhook_id, at, TaskStatus.from_dict(payload))
    if kind == "tryon.request.ended":
        return TryOnRequestEndedEvent(kind, webhook_id, at, TryOnStatus.from_dict(payload))
    engagement = _engagement(payload)
    return EngagementWebhookEvent(engagement.event_type, webhook_id, at, engagement)


def _type_of(payload: Dict[str, Any], header: Optional[str]) -> str:
    named = payload.get("event-type")
    if isinstance(named, str):
        if named not in _ENGAGEMENT:
            raise WebhookVerificationError(f"the webhook verifies but its event-type {named} is no event pmedia sends")
        return named
    if "task-id" in payload:
        return "batch.task.ended"
    if "request-id" in payload:
        return "tryon.request.ended"
    if "video-url" in payload and "client-request-id" in payload:
        return "test" if header == "test" else "video.push"
    raise WebhookVerificationError("the webhook verifies but its body is no event pmedia sends")


def _engagement(payload: Dict[str, Any]) -> EngagementEvent:
    def text(key: str) -> Optional[str]:
        value = payload.get(key)
        return value if isinstance(value, str) else None

    def count(key: str) -> int:
        value = payload.get(key)
        return value if isinstance(value, int) else 0

    event_type = payload["event-type"]
    assert event_type in _ENGAGEMENT
    at = str(payload.get("at", "")).replace("Z", "+00:00")
    row = payload.get("row")
    return EngagementEvent(event_type=event_type, share_id=text("share-id") or "", transaction_id=text("transaction-id"),
                           task_id=text("task-id"), row=row if isinstance(row, int) else None,
                           campaign_id=text("campaign-id"), user_id=text("user-id"), views=count("views"),
                           completions=count("completions"), cta_clicks=count("cta-clicks"),
                           at=datetime.fromisoformat(at) if at else datetime.fromtimestamp(0, tz=timezone.utc))
