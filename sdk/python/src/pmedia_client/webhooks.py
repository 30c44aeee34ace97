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
from typing import Any, Dict, Generic, Literal, Mapping, Optional, TypeVar, Union

from pmedia_client.generated.models.task_status import TaskStatus
from pmedia_client.generated.models.try_on_status import TryOnStatus
from pmedia_client.generated.models.video_push import VideoPush

from .errors import WebhookVerificationError

TOLERANCE_SECONDS = 5 * 60


EventType = TypeVar("EventType", bound=str)


@dataclass(frozen=True)
class SharedVideoEvent(Generic[EventType]):
    """What every event about a shared video carries: the video, and its counters when the event was reached."""
    event_type: EventType
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
class EngagementEvent(SharedVideoEvent[Literal["video.viewed", "video.completed", "cta.clicked"]]):
    """What viewers did on a share page (docs/webhooks.md, "Engagement events"): the video's counters then."""


@dataclass(frozen=True)
class RenderEvent(SharedVideoEvent[Literal["video.rendered", "video.render-failed"]]):
    """The end of a render on first view (docs/webhooks.md, "Renders on first view"): an engagement event's fields,
    then the link, its stable video URL (`video.rendered` only: a redirect to the file) and what happened
    (`video.render-failed` only)."""
    share_url: str
    video_url: Optional[str]
    message: Optional[str]


EventData = TypeVar("EventData")


@dataclass(frozen=True)
class Delivery(Generic[EventType, EventData]):
    """A verified webhook: its type (the webhook-event-type header, checked against the signed body), its webhook-id
    (the same on every retry and replay of one delivery: drop duplicates by it), the webhook-timestamp of this attempt
    and the typed body."""
    type: EventType
    webhook_id: str
    timestamp: datetime
    data: EventData


@dataclass(frozen=True)
class VideoPushEvent(Delivery[Literal["video.push", "test"], VideoPush]):
    """`video.push` (interface 2.7), or `test` (a test sent from the console or POST /webhooks/endpoint/test)."""


@dataclass(frozen=True)
class BatchTaskEndedEvent(Delivery[Literal["batch.task.ended"], TaskStatus]):
    """`batch.task.ended`: the 2.8 task status."""


@dataclass(frozen=True)
class TryOnRequestEndedEvent(Delivery[Literal["tryon.request.ended"], TryOnStatus]):
    """`tryon.request.ended`: the 2.9 status."""


@dataclass(frozen=True)
class EngagementWebhookEvent(Delivery[Literal["video.viewed", "video.completed", "cta.clicked"], EngagementEvent]):
    """`video.viewed`, `video.completed` or `cta.clicked`."""


@dataclass(frozen=True)
class RenderWebhookEvent(Delivery[Literal["video.rendered", "video.render-failed"], RenderEvent]):
    """`video.rendered` or `video.render-failed`."""


WebhookEvent = Union[VideoPushEvent, BatchTaskEndedEvent, TryOnRequestEndedEvent, EngagementWebhookEvent,
                     RenderWebhookEvent]
"""A verified webhook; narrow it by `type` (or isinstance)."""

_ENGAGEMENT = ("video.viewed", "video.completed", "cta.clicked")
_RENDER = ("video.rendered", "video.render-failed")


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
    if kind in _RENDER:
        render = _render(payload)
        return RenderWebhookEvent(render.event_type, webhook_id, at, render)
    engagement = _engagement(payload)
    return EngagementWebhookEvent(engagement.event_type, webhook_id, at, engagement)


def _type_of(payload: Dict[str, Any], header: Optional[str]) -> str:
    named = payload.get("event-type")
    if isinstance(named, str):
        if named not in _ENGAGEMENT and named not in _RENDER:
            raise WebhookVerificationError(f"the webhook verifies but its event-type {named} is no event pmedia sends")
        return named
    if "task-id" in payload:
        return "batch.task.ended"
    if "request-id" in payload:
        return "tryon.request.ended"
    if "video-url" in payload and "client-request-id" in payload:
        return "test" if header == "test" else "video.push"
    raise WebhookVerificationError("the webhook verifies but its body is no event pmedia sends")


def _text(payload: Dict[str, Any], key: str) -> Optional[str]:
    value = payload.get(key)
    return value if isinstance(value, str) else None


def _video_fields(payload: Dict[str, Any]) -> Dict[str, Any]:
    """What every event about a shared video carries, as the dataclasses' keyword arguments."""
    def count(key: str) -> int:
        value = payload.get(key)
        return value if isinstance(value, int) else 0

    at = str(payload.get("at", "")).replace("Z", "+00:00")
    row = payload.get("row")
    return dict(share_id=_text(payload, "share-id") or "", transaction_id=_text(payload, "transaction-id"),
                task_id=_text(payload, "task-id"), row=row if isinstance(row, int) else None,
                campaign_id=_text(payload, "campaign-id"), user_id=_text(payload, "user-id"), views=count("views"),
                completions=count("completions"), cta_clicks=count("cta-clicks"),
                at=datetime.fromisoformat(at) if at else datetime.fromtimestamp(0, tz=timezone.utc))


def _engagement(payload: Dict[str, Any]) -> EngagementEvent:
    event_type = payload["event-type"]
    assert event_type in _ENGAGEMENT
    return EngagementEvent(event_type=event_type, **_video_fields(payload))


def _render(payload: Dict[str, Any]) -> RenderEvent:
    event_type = payload["event-type"]
    assert event_type in _RENDER
    return RenderEvent(event_type=event_type, share_url=_text(payload, "share-url") or "",
                       video_url=_text(payload, "video-url"), message=_text(payload, "message"),
                       **_video_fields(payload))
