"""Every failure the SDK reports is a PmediaError: catch that to catch them all.

An error answer of the API is a PmediaApiError (with the error body of interface 2.11: code, message, the HTTP
status, Retry-After), with a subclass for the codes a caller commonly handles; a render or a task that ended in
failure, a wait that timed out, a webhook that does not verify and a request that did not complete are PmediaErrors
too. The generated operations' own exceptions never reach a caller: the client turns them into these.
"""
from __future__ import annotations

import json
from typing import Any, Dict, Optional


class PmediaError(Exception):
    """The root of every failure the SDK reports."""


class PmediaApiError(PmediaError):
    """An answer that was not 2xx: `code` (NOT_FOUND, VALIDATION_ERROR, ...), `message`, `status`, `body`."""

    def __init__(self, status: int, code: Optional[str], message: str, body: Optional[Dict[str, Any]] = None,
                 retry_after_seconds: Optional[float] = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.body = body
        self.retry_after_seconds = retry_after_seconds

    def __str__(self) -> str:
        return f"{self.status} {self.code or ''}: {self.message}".replace("  ", " ")

    @staticmethod
    def of(status: int, text: str, retry_after_seconds: Optional[float] = None) -> "PmediaApiError":
        """The typed error of an answer: a subclass for the common codes."""
        body: Optional[Dict[str, Any]] = None
        try:
            parsed = json.loads(text) if text else None
            if isinstance(parsed, dict) and isinstance(parsed.get("message"), str):
                body = parsed
        except ValueError:
            pass  # not the error body (a proxy's page): the status and the text are all there is
        code = str(body["code"]) if body and body.get("code") is not None else None
        message = str(body["message"]) if body else (f"HTTP {status}: {text}" if text else f"HTTP {status}")
        kind = _BY_CODE.get(code or "", PmediaApiError)
        return kind(status, code, message, body, retry_after_seconds)


class BadRequestError(PmediaApiError):
    """400 BAD_REQUEST or VALIDATION_ERROR: the message names the field."""


class UnauthorizedError(PmediaApiError):
    """401 UNAUTHORIZED: missing, wrong or revoked credentials."""


class NotFoundError(PmediaApiError):
    """404 NOT_FOUND: unknown, or another client's (the two read the same)."""


class ConflictError(PmediaApiError):
    """409 CONFLICT, e.g. a client-request-id used before with another body."""


class RateLimitedError(PmediaApiError):
    """429 RATE_LIMITED, once the retries the request was allowed are spent."""


class ServiceUnavailableError(PmediaApiError):
    """503 SERVICE_UNAVAILABLE, once the retries the request was allowed are spent."""


_BY_CODE = {"BAD_REQUEST": BadRequestError, "VALIDATION_ERROR": BadRequestError, "UNAUTHORIZED": UnauthorizedError,
            "NOT_FOUND": NotFoundError, "CONFLICT": ConflictError, "RATE_LIMITED": RateLimitedError,
            "SERVICE_UNAVAILABLE": ServiceUnavailableError}


class RenderFailedError(PmediaError):
    """A realtime render refused at acceptance or ended in FAILURE."""

    def __init__(self, message: str, service_request_id: Optional[str], status: Any = None) -> None:
        super().__init__(message)
        self.service_request_id = service_request_id
        self.status = status


class TaskFailedError(PmediaError):
    """A batch task that ended FAILED, with its status."""

    def __init__(self, status: Any) -> None:
        super().__init__(f"task {status.task_id} FAILED: {status.message}")
        self.status = status


class WaitTimeoutError(PmediaError):
    """A wait (wait_for_video, wait_for_task) that did not see its end in time."""


class WebhookVerificationError(PmediaError):
    """A webhook that does not verify (signature, timestamp, headers) or is no event pmedia sends."""
