# Webhook deliveries of the real Paraph verified by paraph.webhooks.verify (docs/webhooks.md#the-signature):
# accepted as delivered; refused with one byte changed, a wrong secret, no header, or a timestamp
# outside the tolerance; accepted with the old secret and with the new during a rotation
# (POST /v1/webhook_endpoints/{id}/rotate_secret). Endpoints and submissions are made with the
# sync and the async client; the deliveries are sent by the app's dispatcher (conftest.work).
from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from conftest import BASE_URL, Receiver, fresh_key, pdf_body, work

from paraph import AsyncParaph, Paraph, webhooks
from paraph.webhooks import WebhookVerificationError


def delivered(receiver: Receiver, clock_offset_seconds: float = 0) -> tuple[bytes, str]:
    before = len(receiver.deliveries)
    work(clock_offset_seconds)
    assert len(receiver.deliveries) == before + 1, "one delivery sent"
    return receiver.deliveries[-1]


def test_a_delivery_is_verified_into_its_event(receiver: Receiver) -> None:
    client = Paraph(fresh_key(), base_url=BASE_URL)
    endpoint = client.create_webhook_endpoint({"url": receiver.url, "events": ["submission.created"]})
    submission = client.create_submission_from_pdf(pdf_body())
    raw, header = delivered(receiver)
    event = webhooks.verify(raw, header, [endpoint["secret"]])
    assert event["type"] == "submission.created"
    assert event["data"]["object"]["id"] == submission["id"]
    assert event["id"].startswith("evt_")

    changed = bytearray(raw)
    changed[raw.index(b"submission.created")] ^= 0x01
    for body, head, secrets in [
        (bytes(changed), header, [endpoint["secret"]]),
        (raw, header, ["whsec_" + "A" * 32]),
        (raw, "", [endpoint["secret"]]),
        (raw, header.replace("v1=", "v0="), [endpoint["secret"]]),
    ]:
        with pytest.raises(WebhookVerificationError):
            webhooks.verify(body, head, secrets)


def test_a_delivery_outside_the_tolerance_is_refused(receiver: Receiver) -> None:
    async def main() -> dict[str, Any]:
        client = AsyncParaph(fresh_key(), base_url=BASE_URL)
        endpoint = await client.create_webhook_endpoint({"url": receiver.url, "events": ["submission.created"]})
        await client.create_submission_from_pdf(pdf_body())
        return dict(endpoint)

    endpoint = asyncio.run(main())
    raw, header = delivered(receiver, clock_offset_seconds=600)  # signed by a clock 10 minutes ahead
    work()  # the app's clock back to now, for the events of the next tests
    with pytest.raises(WebhookVerificationError, match="from now"):
        webhooks.verify(raw, header, [endpoint["secret"]])
    assert webhooks.verify(raw, header, [endpoint["secret"]], tolerance_seconds=900)["type"] == "submission.created"
    signed_at = int(header.split(",")[0].removeprefix("t="))
    assert abs(time.time() + 600 - signed_at) < 60
    with pytest.raises(WebhookVerificationError):
        webhooks.verify(raw, header, [endpoint["secret"]], now=signed_at + 301)
    assert webhooks.verify(raw, header, [endpoint["secret"]], now=signed_at + 300)["id"].startswith("evt_")


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_the_old_secret_verifies_during_a_rotation(flavour: str, receiver: Receiver) -> None:
    key = fresh_key()

    async def rotate_async() -> tuple[str, str]:
        client = AsyncParaph(key, base_url=BASE_URL)
        endpoint = await client.create_webhook_endpoint({"url": receiver.url, "events": ["submission.created"]})
        rotated = await client.rotate_webhook_secret(endpoint["id"], {})
        await client.create_submission_from_pdf(pdf_body())
        return endpoint["secret"], rotated["secret"]

    def rotate_sync() -> tuple[str, str]:
        client = Paraph(key, base_url=BASE_URL)
        endpoint = client.create_webhook_endpoint({"url": receiver.url, "events": ["submission.created"]})
        rotated = client.rotate_webhook_secret(endpoint["id"], {})
        client.create_submission_from_pdf(pdf_body())
        return endpoint["secret"], rotated["secret"]

    old, new = rotate_sync() if flavour == "sync" else asyncio.run(rotate_async())
    assert old != new
    raw, header = delivered(receiver)
    assert header.count("v1=") == 2
    assert webhooks.verify(raw, header, [old])["type"] == "submission.created"
    assert webhooks.verify(raw, header, [new])["type"] == "submission.created"
    assert webhooks.verify(raw, header, ["whsec_" + "B" * 32, old])["type"] == "submission.created"
    with pytest.raises(WebhookVerificationError):
        webhooks.verify(raw, header.split(",v1=")[0] + ",v1=" + "0" * 64, [old, new])
