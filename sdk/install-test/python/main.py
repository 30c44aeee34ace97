"""A vendor's first program with pmedia-client, installed from the wheel `./pmedia sdk` wrote into a fresh virtual
environment outside the repository (scripts/sdk-install-test.sh), checked with mypy --strict. Against the stack when
PMEDIA_GATEWAY_URL is set: a token, a rendered video downloaded, a NOT_FOUND caught at the root of the SDK's errors."""
from __future__ import annotations

import json
import os
import uuid

from pmedia_client import (MediaData, MediaRequest, PmediaApiError, PmediaClient, PmediaError, WebhookEvent,
                           verify_webhook)


def describe(event: WebhookEvent) -> str:
    if event.type == "video.push" or event.type == "test":
        return event.data.video_url
    if event.type == "batch.task.ended":
        return str(event.data.task_id)
    if event.type == "tryon.request.ended":
        return str(event.data.request_id)
    return f"{event.type}: {event.data.views} views"


def main() -> None:
    base_url = os.environ.get("PMEDIA_GATEWAY_URL")
    if not base_url:
        print(json.dumps({"loaded": callable(verify_webhook) and callable(describe)}))
        return
    pmedia = PmediaClient(base_url, client_id=os.environ["PMEDIA_DEMO_CLIENT_ID"],
                          client_secret=os.environ["PMEDIA_DEMO_CLIENT_SECRET"])
    token = pmedia.access_token()
    video = pmedia.render_video(MediaRequest(
        client_request_id=f"sdk-install-py-{uuid.uuid4()}", customer_id="sdk-install", user_id="user-1",
        use_case_id=os.environ["PMEDIA_DEMO_USE_CASE_ID"],
        data=MediaData.from_dict({"personalization_fields": {"name": "Ada"}})))
    assert video.video_url is not None
    size = len(pmedia.download(video.video_url))
    not_found = ""
    try:
        pmedia.templates.get_template(uuid.uuid4())
    except PmediaError as error:
        not_found = error.code or "" if isinstance(error, PmediaApiError) else type(error).__name__
    print(json.dumps({"token": bool(token), "status": video.status, "bytes": size, "notFound": not_found}))


if __name__ == "__main__":
    main()
