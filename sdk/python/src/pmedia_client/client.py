"""The hand-written layer over the generated operations (pmedia_client.generated): a client from the base URL and the client
credentials with the token fetched, cached and refreshed; retries of idempotent requests on 429 and 503 after
Retry-After; typed errors (errors.py); wait_for_video, render_video, upload_batch_file, wait_for_task, download.
"""
from __future__ import annotations

import random
import re
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, TypeVar, Union
from urllib.parse import urlparse

import urllib3

from pmedia_client.generated import ApiClient, Configuration
from pmedia_client.generated.api.authentication_api import AuthenticationApi
from pmedia_client.generated.api.batch_media_api import BatchMediaApi
from pmedia_client.generated.api.campaigns_api import CampaignsApi
from pmedia_client.generated.api.realtime_media_api import RealtimeMediaApi
from pmedia_client.generated.api.templates_api import TemplatesApi
from pmedia_client.generated.api.usage_api import UsageApi
from pmedia_client.generated.api.virtual_try_on_api import VirtualTryOnApi
from pmedia_client.generated.api.webhooks_api import WebhooksApi
from pmedia_client.generated.exceptions import ApiException
from pmedia_client.generated.models.credentials import Credentials
from pmedia_client.generated.models.media_request import MediaRequest
from pmedia_client.generated.models.media_status import MediaStatus
from pmedia_client.generated.models.task_create_request import TaskCreateRequest
from pmedia_client.generated.models.task_create_response import TaskCreateResponse
from pmedia_client.generated.models.task_status import TaskStatus
from pmedia_client.generated.models.upload_request import UploadRequest
from pmedia_client.generated.operations import CONTRACT_OPERATIONS
from pmedia_client.generated.rest import RESTResponse

from .errors import PmediaApiError, PmediaError, RenderFailedError, TaskFailedError, WaitTimeoutError

T = TypeVar("T")

# The operations docs/openapi.yaml marks `x-pmedia-idempotent: true` (a token, the realtime creates, which are
# idempotent by client-request-id, an upload URL, a preview), as generated into pmedia_client.generated.operations:
# the list is the document's, not kept here. A batch task create, a cancel or a try-on create is never retried.
_MARKED_IDEMPOTENT = tuple((operation.method.upper(), re.compile("[^/]+".join(
    re.escape(part) for part in re.split(r"\{[^}]+\}", operation.path))))
    for operation in CONTRACT_OPERATIONS if operation.marked_idempotent)


def idempotent(method: str, path: str) -> bool:
    """Whether a request may be sent again after a 429 or 503 without doing its work twice: GET, HEAD, PUT, DELETE and
    OPTIONS by HTTP, and an operation the document marks `x-pmedia-idempotent: true` (`path` below the base URL)."""
    verb = method.upper()
    if verb in ("GET", "HEAD", "PUT", "DELETE", "OPTIONS"):
        return True
    return any(verb == marked and pattern.fullmatch(path) for marked, pattern in _MARKED_IDEMPOTENT)


@dataclass
class RetryPolicy:
    """At most `max_attempts` tries of an idempotent request on 429/503, waiting Retry-After (capped)."""
    max_attempts: int = 4
    max_wait_seconds: float = 30.0
    on_retry: Optional[Callable[[str, str, int, float], None]] = None


class _TokenCache:
    """One token at a time: fetched on first use, refreshed 5 minutes (at most 10 % of its life) before expiry."""

    def __init__(self, fetch: Callable[[], "tuple[str, int]"], clock: Callable[[], float]) -> None:
        self._fetch = fetch
        self._clock = clock
        self._lock = threading.Lock()
        self._token: Optional[str] = None
        self._renew_at = 0.0

    def get(self) -> str:
        with self._lock:
            if self._token is None or self._clock() >= self._renew_at:
                token, lifetime = self._fetch()
                self._token = token
                self._renew_at = self._clock() + lifetime - min(300.0, lifetime * 0.1)
            return self._token

    def invalidate(self, token: str) -> None:
        with self._lock:
            if self._token == token:
                self._token = None


class _SdkApiClient(ApiClient):
    """The generated ApiClient with the SDK's credentials, retries and errors in its one request method."""

    def __init__(self, configuration: Configuration, sdk: "PmediaClient") -> None:
        super().__init__(configuration)
        self._sdk = sdk
        self.user_agent = "pmedia-client-python/1.0.0"

    def call_api(self, method: str, url: str, header_params: Optional[dict[str, Any]] = None, body: Any = None,
                 post_params: Any = None, _request_timeout: Any = None) -> RESTResponse:
        headers = dict(header_params or {})
        path = urlparse(url).path
        renewed = False
        attempt = 1
        while True:
            token = None
            if "Authorization" in headers and self._sdk._tokens is not None and path != "/auth/token":
                token = self._sdk._tokens.get()
                headers["Authorization"] = f"Bearer {token}"
            try:
                response = self.rest_client.request(method, url, headers=headers, body=body,
                                                    post_params=post_params, _request_timeout=_request_timeout)
            except (urllib3.exceptions.HTTPError, ApiException, OSError) as error:
                raise PmediaError(f"{method} {path} did not complete: {error}") from error
            if response.status == 401 and token is not None and not renewed:
                renewed = True
                assert self._sdk._tokens is not None
                self._sdk._tokens.invalidate(token)
                continue
            wait = self._sdk._retry_wait(method, path, response, attempt)
            if wait is None:
                return response
            if self._sdk.retry.on_retry:
                self._sdk.retry.on_retry(method, path, response.status, wait)
            self._sdk._sleep(wait)
            attempt += 1

    def response_deserialize(self, response_data: RESTResponse, response_types_map: Any = None) -> Any:
        if not 200 <= response_data.status <= 299:
            raise _error_of(response_data)
        try:
            return super().response_deserialize(response_data, response_types_map)
        except ApiException as error:
            raise PmediaError(f"the answer could not be read: {error}") from error


def _retry_after(response: RESTResponse) -> Optional[float]:
    value = response.getheader("Retry-After")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _error_of(response: RESTResponse) -> PmediaApiError:
    data = response.read() or b""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)
    return PmediaApiError.of(response.status, text, _retry_after(response))


class PmediaClient:
    """The pmedia API from Python.

    ``PmediaClient(base_url, client_id=..., client_secret=...)``; the generated operations are at ``realtime``,
    ``batch``, ``templates``, ``try_on``, ``campaigns``, ``webhooks``, ``usage`` (or ``api(AnyGeneratedApi)``), on
    this client's credentials, retries and errors.
    """

    def __init__(self, base_url: str, client_id: Optional[str] = None, client_secret: Optional[str] = None,
                 api_key: Optional[str] = None, retry: Optional[RetryPolicy] = None,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
        self.base_url = base_url.rstrip("/")
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._clock = clock
        configuration = Configuration(host=self.base_url)
        # The generated layer adds the header an operation's security names; the SDK puts the current token in it.
        configuration.access_token = "pending"
        # urllib3 would retry a 429 or 503 with Retry-After by itself (and sleep): the SDK decides instead.
        configuration.retries = urllib3.Retry(total=0, redirect=0, raise_on_status=False)
        if api_key:
            configuration.api_key["apiKey"] = api_key
        self._api_client = _SdkApiClient(configuration, self)
        self._tokens: Optional[_TokenCache] = None
        if client_id is not None and client_secret is not None:
            auth = AuthenticationApi(self._api_client)

            def fetch() -> "tuple[str, int]":
                answer = auth.create_token(Credentials(client_id=client_id, client_secret=client_secret))
                return answer.access_token, int(answer.expires_in)
            self._tokens = _TokenCache(fetch, clock)
        self.realtime = RealtimeMediaApi(self._api_client)
        self.batch = BatchMediaApi(self._api_client)
        self.templates = TemplatesApi(self._api_client)
        self.try_on = VirtualTryOnApi(self._api_client)
        self.campaigns = CampaignsApi(self._api_client)
        self.webhooks = WebhooksApi(self._api_client)
        self.usage = UsageApi(self._api_client)
        self._http = urllib3.PoolManager(retries=urllib3.Retry(total=0, redirect=0, raise_on_status=False))

    def api(self, kind: Callable[[ApiClient], T]) -> T:
        """Any generated API class of pmedia_client.generated.api, on this client's settings."""
        return kind(self._api_client)

    def access_token(self) -> str:
        """The current access token (fetched, or refreshed shortly before it expires)."""
        if self._tokens is None:
            raise PmediaError("no client credentials: make the client with client_id and client_secret")
        return self._tokens.get()

    # --- realtime ------------------------------------------------------------------------------------------------

    def render_video(self, request: MediaRequest, timeout_seconds: float = 600,
                     on_progress: Optional[Callable[[MediaStatus], None]] = None) -> MediaStatus:
        """Creates a realtime request and waits until it is rendered (safe again with the same client-request-id)."""
        acceptance = self.realtime.create_media(request)
        if acceptance.status != "SUCCESS":
            raise RenderFailedError(f"request {acceptance.client_request_id} refused: {acceptance.message}",
                                    acceptance.service_request_id)
        return self.wait_for_video(acceptance.service_request_id, timeout_seconds, on_progress)

    def wait_for_video(self, service_request_id: str, timeout_seconds: float = 600,
                       on_progress: Optional[Callable[[MediaStatus], None]] = None) -> MediaStatus:
        """Polls GET /status/{id} with a backoff until SUCCESS (returned) or FAILURE (RenderFailedError)."""
        def done(status: MediaStatus) -> bool:
            if status.status == "FAILURE":
                raise RenderFailedError(f"request {service_request_id} failed: {status.message}", service_request_id,
                                        status)
            return status.status == "SUCCESS"
        return self._poll(lambda: self.realtime.get_media_status(service_request_id), done, timeout_seconds, 0.25, 2.0,
                          on_progress, f"video {service_request_id}")

    # --- batch ---------------------------------------------------------------------------------------------------

    def upload_batch_file(self, file: Union[str, Path, bytes], file_name: Optional[str] = None) -> str:
        """Puts a batch input file (UTF-8 CSV) into the vendor's namespace; answers the file-path for create_task."""
        if isinstance(file, (str, Path)):
            content = Path(file).read_bytes()
            file_name = file_name or Path(file).name
        else:
            content = file
        answer = self.batch.create_task_upload(UploadRequest(file_name=file_name or "input.csv"))
        response = self._http.request("PUT", answer.upload_url, body=content, headers={"Content-Type": "text/csv"})
        if response.status // 100 != 2:
            raise PmediaError(f"the upload of {file_name} was refused: HTTP {response.status}")
        return answer.file_path

    def create_task(self, request: TaskCreateRequest) -> TaskCreateResponse:
        """Creates a batch task (never retried: a second create would be a second task)."""
        return self.batch.create_task(request)

    def wait_for_task(self, task_id: str, timeout_seconds: float = 24 * 3600,
                      on_progress: Optional[Callable[[TaskStatus], None]] = None) -> TaskStatus:
        """Waits until the task is COMPLETED (returned) or FAILED (TaskFailedError)."""
        def done(status: TaskStatus) -> bool:
            if status.status == "FAILED":
                raise TaskFailedError(status)
            return status.status == "COMPLETED"
        return self._poll(lambda: self.batch.get_task_status(uuid.UUID(task_id)), done, timeout_seconds, 1.0, 10.0, on_progress, f"task {task_id}")

    def download(self, url: str) -> bytes:
        """The bytes at a URL the API handed out (video_url, a rendition, file_url); no credential is sent."""
        response = self._http.request("GET", url)
        if response.status // 100 != 2:
            raise PmediaError(f"GET {urlparse(url).path}: HTTP {response.status}")
        return bytes(response.data)

    # --- plumbing ------------------------------------------------------------------------------------------------

    def _retry_wait(self, method: str, path: str, response: RESTResponse, attempt: int) -> Optional[float]:
        if response.status not in (429, 503) or not idempotent(method, path) or attempt >= self.retry.max_attempts:
            return None
        after = _retry_after(response)
        wait = after if after is not None else min(8.0, 0.5 * 2 ** (attempt - 1)) * (0.5 + random.random() / 2)
        if wait > self.retry.max_wait_seconds:
            return None
        return wait

    def _poll(self, read: Callable[[], T], done: Callable[[T], bool], timeout: float, first: float, longest: float,
              on_progress: Optional[Callable[[T], None]], what: str) -> T:
        deadline = self._clock() + timeout
        interval = first
        while True:
            status = read()
            if on_progress:
                on_progress(status)
            if done(status):
                return status
            if self._clock() + interval >= deadline:
                raise WaitTimeoutError(f"{what} did not finish within {timeout} s")
            self._sleep(interval)
            interval = min(longest, interval * 1.5)

