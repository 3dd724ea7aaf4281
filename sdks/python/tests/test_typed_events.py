# The webhook events typed from the OpenAPI `webhooks` section (docs/webhooks.md#the-body): the
# union holds one TypedDict per deliverable type, each with its `type` as a Literal, so a type
# checker narrows a verified event by its type (`describe` below is checked by mypy --strict in
# sdks/python/python-sdk.test.ts); real deliveries of three types verify into events it reads.
from __future__ import annotations

import typing

from conftest import BASE_URL, Receiver, fresh_key, pdf_body, work

from paraph import Paraph, _generated, webhooks
from paraph.types import WebhookEvent


def describe(event: WebhookEvent) -> str:
    """A line about an event, each branch reading the fields of its own type only."""
    if event["type"] == "webhook.test":
        return f"test of {event['data']['object']['url']}"
    if event["type"] == "bulk_send.completed":
        return f"bulk send {event['data']['object']['id']} done"
    if event["type"] == "submitter.reminded":
        return f"reminded {event['data']['submitter_id']}"
    return f"{event['type']}: {event['data']['object']['id']} is {event['data']['object']['status']}"


def test_the_union_has_one_typed_member_per_deliverable_type() -> None:
    union = eval(typing.cast(str, _generated.WebhookEvent), vars(_generated))  # an alias written as a string
    members = typing.get_args(union)
    literals = [typing.get_args(typing.get_type_hints(m)["type"]) for m in members]
    assert [lit for (lit,) in literals] == list(_generated.WEBHOOK_EVENT_TYPES)
    assert {"submission.created", "submission.completed", "submission.purged", "submitter.reminded",
            "bulk_send.completed", "webhook.test"} <= set(_generated.WEBHOOK_EVENT_TYPES)


def test_real_deliveries_verify_into_events_of_their_type(receiver: Receiver) -> None:
    client = Paraph(fresh_key(), base_url=BASE_URL)
    events = ["submission.created", "submission.cancelled"]
    endpoint = client.create_webhook_endpoint({"url": receiver.url, "events": events})
    client.test_webhook_endpoint(endpoint["id"])  # sent at once, before the others
    submission = client.create_submission_from_pdf(pdf_body())
    work()
    client.cancel_submission(submission["id"])
    work()
    lines = [describe(webhooks.verify(raw, header, [endpoint["secret"]])) for raw, header in receiver.deliveries]
    assert lines == [
        f"test of {receiver.url}",
        f"submission.created: {submission['id']} is {submission['status']}",
        f"submission.cancelled: {submission['id']} is cancelled",
    ]
