"""The hand-written layer against a local double of the API (a thread of http.server); the same calls against the
stack: scripts/sdk-install-test.sh. Run: python -m unittest discover -s tests (with the wheel installed)."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
import unittest
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple

import pmedia_client
from pmedia_client import (MediaData, MediaRequest, NotFoundError, PmediaApiError, PmediaClient, PmediaError,
                           RenderFailedError, RenderWebhookEvent, RetryPolicy, ServiceUnavailableError,
                           TaskCreateRequest, WebhookVerificationError, verify_webhook)

Answer = Tuple[int, Dict[str, str], Any]


class FakeApi:
    """Answers each request with `handler(method, path, headers, body)`, and records them."""

    def __init__(self, handler: Callable[[str, str, Dict[str, str], bytes], Answer]) -> None:
        self.requests: List[Tuple[str, str, Dict[str, str]]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k.lower(): v for k, v in self.headers.items()}
                fake.requests.append((self.command, self.path, headers))
                status, extra, answer = handler(self.command, self.path.split("?")[0], headers, body)
                data = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in extra.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _any

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def count(self, path: str) -> int:
        return sum(1 for _, p, _ in self.requests if p.split("?")[0] == path)

    def close(self) -> None:
        self.server.shutdown()


def token(n: int, expires_in: int = 3600) -> Answer:
    return 200, {}, {"access_token": f"t{n}", "token_type": "Bearer", "expires_in": expires_in}


def error(status: int, code: str, message: str, headers: Optional[Dict[str, str]] = None) -> Answer:
    return status, headers or {}, {"error": True, "code": code, "message": message, "timestamp": "2026-11-29T08:00:00Z"}


STATUS_OK = {"status": "SUCCESS", "message": "video ready", "video-url": "https://s/v.mp4", "image-url": "https://s/i.jpg"}


class ClientTest(unittest.TestCase):

    def setUp(self) -> None:
        self.api: Optional[FakeApi] = None

    def tearDown(self) -> None:
        if self.api:
            self.api.close()

    def client(self, handler: Callable[[str, str, Dict[str, str], bytes], Answer], **options: Any) -> PmediaClient:
        self.api = FakeApi(handler)
        return PmediaClient(self.api.url, client_id="c", client_secret="s", sleep=lambda _: None, **options)

    def test_a_token_is_fetched_once_cached_and_sent_to_every_operation_that_takes_it(self) -> None:
        tokens = iter(range(1, 10))
        pmedia = self.client(lambda m, p, h, b: token(next(tokens)) if p == "/auth/token" else (200, {}, STATUS_OK))
        pmedia.realtime.get_media_status("r-1")
        pmedia.realtime.get_media_status("r-2")
        assert self.api
        self.assertEqual(self.api.count("/auth/token"), 1)
        self.assertEqual([h.get("authorization") for _, p, h in self.api.requests if p.startswith("/status/")],
                         ["Bearer t1", "Bearer t1"])
        self.assertEqual(pmedia.access_token(), "t1")

    def test_a_401_to_a_cached_token_fetches_a_new_one_and_tries_once_more(self) -> None:
        tokens = iter(range(1, 10))
        seen: List[str] = []

        def handler(m: str, p: str, h: Dict[str, str], b: bytes) -> Answer:
            if p == "/auth/token":
                return token(next(tokens))
            seen.append(h["authorization"])
            return error(401, "UNAUTHORIZED", "revoked") if h["authorization"] == "Bearer t1" else (200, {}, STATUS_OK)
        pmedia = self.client(handler)
        self.assertEqual(pmedia.realtime.get_media_status("r").status, "SUCCESS")
        self.assertEqual(seen, ["Bearer t1", "Bearer t2"])

    def test_a_429_on_an_idempotent_request_is_retried_after_retry_after(self) -> None:
        waits: List[float] = []
        answers = iter([error(429, "RATE_LIMITED", "slow down", {"Retry-After": "2"}), (200, {}, STATUS_OK)])
        self.api = FakeApi(lambda m, p, h, b: token(1) if p == "/auth/token" else next(answers))
        pmedia = PmediaClient(self.api.url, client_id="c", client_secret="s", sleep=waits.append)
        self.assertEqual(pmedia.realtime.get_media_status("r").status, "SUCCESS")
        self.assertEqual(waits, [2.0])

    def test_a_503_on_a_batch_task_create_is_not_retried_and_is_a_typed_error(self) -> None:
        pmedia = self.client(lambda m, p, h, b: token(1) if p == "/auth/token"
                             else error(503, "SERVICE_UNAVAILABLE", "the batch service is unavailable", {"Retry-After": "5"}))
        with self.assertRaises(ServiceUnavailableError) as raised:
            pmedia.create_task(TaskCreateRequest.from_dict({"campaign-id": "c", "template-id": str(uuid.uuid4()),
                                                            "file-path": "s3://b/k.csv", "row-count": 1,
                                                            "expected-output-duration": 10}))
        self.assertEqual(raised.exception.retry_after_seconds, 5.0)
        assert self.api
        self.assertEqual(self.api.count("/media/task/create"), 1)

    def test_an_error_answer_of_a_generated_operation_is_caught_at_the_root(self) -> None:
        pmedia = self.client(lambda m, p, h, b: token(1) if p == "/auth/token" else error(404, "NOT_FOUND", "no such template"))
        try:
            pmedia.templates.get_template(uuid.uuid4())
            self.fail("no error")
        except PmediaError as caught:
            self.assertIsInstance(caught, NotFoundError)
            assert isinstance(caught, PmediaApiError)
            self.assertEqual((caught.status, caught.code, caught.message), (404, "NOT_FOUND", "no such template"))
        nowhere = PmediaClient("http://127.0.0.1:9", client_id="c", client_secret="s",
                               retry=RetryPolicy(max_attempts=1))
        with self.assertRaises(PmediaError):
            nowhere.templates.get_template(uuid.uuid4())

    def test_render_video_waits_and_returns_success_or_raises_render_failed(self) -> None:
        statuses = iter([{"status": "PROCESSING", "message": None}, STATUS_OK])
        seen: List[str] = []

        def handler(m: str, p: str, h: Dict[str, str], b: bytes) -> Answer:
            if p == "/auth/token":
                return token(1)
            if p == "/media/demo":
                return 200, {}, {"client-request-id": "o-1", "service-request-id": "r-1", "status": "SUCCESS",
                                 "message": "accepted"}
            return 200, {}, next(statuses)
        pmedia = self.client(handler)
        request = MediaRequest(client_request_id="o-1", customer_id="c", use_case_id="u", user_id="u-1",
                               data=MediaData.from_dict({"personalization_fields": {"name": "Ada"}}))
        video = pmedia.render_video(request, on_progress=lambda s: seen.append(str(s.status)))
        self.assertEqual((video.status, video.video_url, seen), ("SUCCESS", "https://s/v.mp4", ["PROCESSING", "SUCCESS"]))
        failed = self.client(lambda m, p, h, b: token(1) if p == "/auth/token"
                             else (200, {}, {"status": "FAILURE", "message": "the image could not be read"}))
        with self.assertRaises(RenderFailedError):
            failed.wait_for_video("r-2")

    def test_upload_batch_file_puts_to_the_presigned_url_without_the_token(self) -> None:
        holder: Dict[str, str] = {}

        def handler(m: str, p: str, h: Dict[str, str], b: bytes) -> Answer:
            if p == "/auth/token":
                return token(1)
            if p == "/media/task/uploads":
                return 200, {}, {"upload-url": f"{holder['url']}/store/k.csv", "file-path": "s3://b/inputs/c/k.csv",
                                 "expires-in": 900}
            return 200, {}, b""
        pmedia = self.client(handler)
        assert self.api
        holder["url"] = self.api.url
        self.assertEqual(pmedia.upload_batch_file(b"user-id,name\nu,Ada\n", "k.csv"), "s3://b/inputs/c/k.csv")
        put = [h for m, p, h in self.api.requests if m == "PUT"]
        self.assertEqual(len(put), 1)
        self.assertNotIn("authorization", put[0])


SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"


def signed(body: str, kind: Optional[str] = None, at: Optional[float] = None) -> Dict[str, str]:
    stamp = int(at if at is not None else time.time())
    key = base64.b64decode(SECRET[len("whsec_"):])
    signature = base64.b64encode(hmac.new(key, f"msg_1.{stamp}.{body}".encode(), hashlib.sha256).digest()).decode()
    headers = {"webhook-id": "msg_1", "webhook-timestamp": str(stamp),
               "webhook-signature": f"v1,bm90LXRoaXMtb25l v1,{signature}"}
    if kind:
        headers["webhook-event-type"] = kind
    return headers


PUSH = '{"client-request-id":"r-1","user-id":"u-1","video-url":"https://s/v.mp4"}'
ENGAGEMENT = ('{"event-type":"%s","share-id":"uve","transaction-id":"c977","task-id":null,"row":null,"campaign-id":null,'
              '"user-id":"u-1","views":1,"completions":0,"cta-clicks":2,"at":"2026-11-27T13:26:42.61Z"}')

RENDERED = ('{"event-type":"video.rendered","share-id":"uve","transaction-id":null,"task-id":"6f1c","row":7,'
            '"campaign-id":"spring","user-id":"u-7","views":0,"completions":0,"cta-clicks":0,"at":"2026-11-30T09:00:00Z",'
            '"share-url":"https://p/v/uve","video-url":"https://p/v/uve/video.mp4","message":null}')
RENDER_FAILED = ('{"event-type":"video.render-failed","share-id":"uvf","transaction-id":"c977","task-id":null,"row":null,'
                 '"campaign-id":null,"user-id":"u-1","views":1,"completions":0,"cta-clicks":0,'
                 '"at":"2026-11-30T09:00:00Z","share-url":"https://p/v/uvf","video-url":null,'
                 '"message":"the render failed"}')


class WebhooksTest(unittest.TestCase):

    def test_the_specifications_example_signature(self) -> None:
        body = '{"test": 2432232314}'
        headers = {"webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek", "webhook-timestamp": "1614265330",
                   "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="}
        with self.assertRaises(WebhookVerificationError) as raised:  # it verifies, but is no event pmedia sends
            verify_webhook(headers, body, SECRET, now=1614265330)
        self.assertIn("no event pmedia sends", str(raised.exception))

    def test_every_event_type_comes_back_with_its_type_and_typed_fields(self) -> None:
        events = {
            "video.push": (PUSH, lambda d: d.video_url == "https://s/v.mp4" and d.client_request_id == "r-1"),
            "test": ('{"client-request-id":"pmedia-test-1","user-id":"u","video-url":"https://s/t.mp4"}',
                     lambda d: d.client_request_id == "pmedia-test-1"),
            "batch.task.ended": ('{"task-id":"6f1c5b3a-0000-4000-8000-000000000001","status":"COMPLETED",'
                                 '"file-path":"s3://b/o.csv","total-count":3,"processed":3,"message":null}',
                                 lambda d: d.status == "COMPLETED" and d.total_count == 3),
            "tryon.request.ended": ('{"request-id":"9a2b5b3a-0000-4000-8000-000000000001","status":"SUCCESS",'
                                    '"generated-output":"https://s/t.png","message":null}',
                                    lambda d: d.generated_output == "https://s/t.png"),
            "video.viewed": (ENGAGEMENT % "video.viewed", lambda d: d.views == 1 and d.cta_clicks == 2),
            "video.completed": (ENGAGEMENT % "video.completed", lambda d: d.event_type == "video.completed"),
            "cta.clicked": (ENGAGEMENT % "cta.clicked", lambda d: d.share_id == "uve" and d.at.year == 2026),
            "video.rendered": (RENDERED, lambda d: d.task_id == "6f1c" and d.row == 7
                               and d.share_url == "https://p/v/uve" and d.video_url == "https://p/v/uve/video.mp4"
                               and d.message is None and d.at.year == 2026),
            "video.render-failed": (RENDER_FAILED, lambda d: d.transaction_id == "c977" and d.views == 1
                                    and d.video_url is None and d.message == "the render failed"),
        }
        for kind, (body, check) in events.items():
            event = verify_webhook(signed(body, kind), body, SECRET)
            self.assertEqual(event.type, kind)
            self.assertEqual(event.webhook_id, "msg_1")
            self.assertTrue(check(event.data), kind)
        self.assertEqual(verify_webhook(signed(PUSH), PUSH.encode(), SECRET).type, "video.push")
        self.assertIsInstance(verify_webhook(signed(RENDER_FAILED), RENDER_FAILED, SECRET), RenderWebhookEvent)

    def test_a_header_that_disagrees_a_changed_body_another_secret_or_an_old_timestamp_does_not_verify(self) -> None:
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(signed(PUSH, "batch.task.ended"), PUSH, SECRET)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(signed(PUSH), PUSH.replace("u-1", "u-2"), SECRET)
        with self.assertRaises(PmediaError):
            verify_webhook(signed(PUSH), PUSH, "whsec_" + base64.b64encode(b"another secret").decode())
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(signed(PUSH, at=time.time() - 6 * 60), PUSH, SECRET)
        headers = signed(PUSH)
        del headers["webhook-id"]
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(headers, PUSH, SECRET)

    def test_every_error_is_a_pmedia_error(self) -> None:
        for name in pmedia_client.__all__:
            value = getattr(pmedia_client, name)
            if isinstance(value, type) and issubclass(value, Exception):
                self.assertTrue(issubclass(value, PmediaError), name)


if __name__ == "__main__":
    unittest.main()
