# Every list of the API iterated through its cursors (docs/api.md#pagination), two items a page,
# with `for` and `async for`: each item once, none missing, in the list's order.
from __future__ import annotations

import asyncio
import math
from typing import Any, cast

from conftest import BASE_URL, Receiver, fresh_key, pdf_base64, pdf_body, work

from paraph import AsyncParaph, Paraph
from paraph.types import BulkSend, BulkSendRowInput, CreateTemplateBody, FieldDeclaration


def template_body(name: str) -> CreateTemplateBody:
    field: FieldDeclaration = {"name": "Signature", "role": "signer", "areas": [{"page": 1, "x": 0.1, "y": 0.8, "w": 0.3, "h": 0.05}]}
    return {"name": name, "documents": [{"pdf_base64": pdf_base64(), "fields": [field]}]}


def seed(client: Paraph, receiver: Receiver) -> dict[str, Any]:
    """Three or more of everything each list shows, in a fresh account; the ids made."""
    templates = [client.create_template(template_body(f"T{i}"))["id"] for i in range(3)]
    submissions = [client.create_submission_from_pdf(pdf_body(f"s{i}@example.eu"))["id"] for i in range(3)]
    endpoints = [client.create_webhook_endpoint({"url": receiver.url, "events": ["submission.created"]})["id"]
                 for _ in range(3)]
    for _ in range(3):
        client.test_webhook_endpoint(endpoints[0])
    row: BulkSendRowInput = {"submitters": [{"role": "signer", "email": "row@example.eu"}]}
    bulk = [cast(BulkSend, client.create_bulk_send({"template_id": templates[0], "rows": [row] * (3 if i == 0 else 1)}))["id"]
            for i in range(3)]
    holds = [client.create_legal_hold({"submission_ids": [s], "reason": "audit"})["id"] for s in submissions]
    work()  # the bulk sends' rows run, the request logs are written
    return {"templates": templates, "submissions": submissions, "endpoints": endpoints, "bulk": bulk,
            "holds": holds}


def lists(made: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each list method, its arguments, and what it must hold (None: whatever a full page shows)."""
    return {
        "templates": ("list_templates", {}),
        "submissions": ("list_submissions", {}),
        "submitters": ("list_submitters", {}),
        "events": ("list_events", {}),
        "endpoints": ("list_webhook_endpoints", {}),
        "deliveries": ("list_webhook_deliveries", {"id": made["endpoints"][0]}),
        "bulk": ("list_bulk_sends", {}),
        "rows": ("list_bulk_send_rows", {"id": made["bulk"][0]}),
        "request_logs": ("list_request_logs", {"status": 201}),
        "holds": ("list_legal_holds", {}),
    }


def call(client: Any, method: str, args: dict[str, Any], **query: Any) -> Any:
    positional = [args[k] for k in ("id",) if k in args]
    return getattr(client, method)(*positional, **{k: v for k, v in args.items() if k != "id"}, **query)


def check(name: str, paged: list[dict[str, Any]], whole: list[dict[str, Any]], pages: int) -> None:
    ids = [item.get("id", item.get("row")) for item in paged]
    assert len(whole) >= 3, f"{name}: seeded at least 3"
    assert len(ids) == len(set(ids)), f"{name}: an item twice"
    assert ids == [item.get("id", item.get("row")) for item in whole], f"{name}: pages of 2 != one page of 100"
    assert pages == math.ceil(len(whole) / 2), f"{name}: {pages} pages for {len(whole)} items"


def test_every_list_iterates_across_pages_sync(receiver: Receiver) -> None:
    client = Paraph(fresh_key(), base_url=BASE_URL)
    made = seed(client, receiver)
    for name, (method, args) in lists(made).items():
        whole = list(call(client, method, args, limit=100).pages())[0]["data"]
        paged = list(call(client, method, args, limit=2))
        pages = len(list(call(client, method, args, limit=2).pages()))
        check(name, paged, whole, pages)
    assert {t["id"] for t in client.list_templates(limit=2)} == set(made["templates"])
    assert len(list(client.list_bulk_send_rows(made["bulk"][0], limit=2))) == 3


def test_every_list_iterates_across_pages_async(receiver: Receiver) -> None:
    key = fresh_key()
    made = seed(Paraph(key, base_url=BASE_URL), receiver)

    async def main() -> None:
        client = AsyncParaph(key, base_url=BASE_URL)
        for name, (method, args) in lists(made).items():
            first = [p async for p in call(client, method, args, limit=100).pages()][0]
            paged = [item async for item in call(client, method, args, limit=2)]
            pages = [p async for p in call(client, method, args, limit=2).pages()]
            check(name, paged, first["data"], len(pages))

    asyncio.run(main())


def test_iteration_starts_at_a_given_cursor() -> None:
    client = Paraph(fresh_key(), base_url=BASE_URL)
    for _ in range(3):
        client.create_submission_from_pdf(pdf_body())
    whole = [s["id"] for s in client.list_submissions()]
    cursor = next(iter(client.list_submissions(limit=1).pages()))["next_cursor"]
    assert [s["id"] for s in client.list_submissions(limit=1, cursor=cursor)] == whole[1:]
