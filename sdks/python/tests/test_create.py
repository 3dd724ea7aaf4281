# Creating submissions from a PDF and from HTML, with the sync and the async client, against the
# real Paraph (docs/api.md#creating-a-submission); each call sends an Idempotency-Key by itself.
from __future__ import annotations

import asyncio

from conftest import BASE_URL, Proxy, html_body, pdf_body

from paraph import AsyncParaph, Paraph


def test_sync_creates_from_pdf_and_html(key: str, proxy: Proxy) -> None:
    client = Paraph(key, base_url=proxy.url)
    from_pdf = client.create_submission_from_pdf(pdf_body())
    assert from_pdf["id"].startswith("sub_")
    assert from_pdf["submitters"][0]["email"] == "ann@example.eu"
    from_html = client.create_submission_from_html(html_body())
    assert from_html["id"].startswith("sub_")
    assert [f["name"] for f in from_html["fields"]] == ["Signature"]
    keys = [r["idempotencyKey"] for r in proxy.requests()]
    assert len(keys) == 2 and all(keys) and keys[0] != keys[1], keys
    assert client.get_submission(from_pdf["id"])["status"] in ("created", "sent")


def test_async_creates_from_pdf_and_html(key: str) -> None:
    async def main() -> tuple[str, str]:
        client = AsyncParaph(key, base_url=BASE_URL)
        from_pdf, from_html = await asyncio.gather(
            client.create_submission_from_pdf(pdf_body()),
            client.create_submission_from_html(html_body()),
        )
        return from_pdf["id"], from_html["id"]

    pdf_id, html_id = asyncio.run(main())
    listed = {s["id"] for s in Paraph(key, base_url=BASE_URL).list_submissions()}
    assert listed == {pdf_id, html_id}


def test_a_caller_given_idempotency_key_replays_the_first_answer(key: str) -> None:
    client = Paraph(key, base_url=BASE_URL)
    first = client.create_submission_from_pdf(pdf_body(), idempotency_key="order-1042")
    again = client.create_submission_from_pdf(pdf_body(), idempotency_key="order-1042")
    assert again["id"] == first["id"]
    assert len(list(client.list_submissions())) == 1
