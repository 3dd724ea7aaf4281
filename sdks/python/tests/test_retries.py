# Retries, timeouts, cancellation and typed errors (docs/api.md#errors, #idempotency), sync and
# async, through the fault proxy in front of the real Paraph (test/fault-proxy.ts): an answer lost
# after the creation and a reset connection are retried with the same Idempotency-Key and create
# once; a 429 waits its Retry-After; no other 4xx is retried.
from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from conftest import BASE_URL, Proxy, html_body, pdf_body

from paraph import (
    APITimeoutError,
    AsyncParaph,
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    Paraph,
    RetryPolicy,
)

FAST = RetryPolicy(max_retries=3, initial_delay=0.05, max_delay=0.2)


def sync_create(key: str, body: Any, route: str) -> str:
    client = Paraph(key, base_url=Proxy.url, retry=FAST)
    if route == "from_pdf":
        return client.create_submission_from_pdf(body)["id"]
    return client.create_submission_from_html(body)["id"]


def async_create(key: str, body: Any, route: str) -> str:
    async def main() -> str:
        client = AsyncParaph(key, base_url=Proxy.url, retry=FAST)
        if route == "from_pdf":
            return (await client.create_submission_from_pdf(body))["id"]
        return (await client.create_submission_from_html(body))["id"]

    return asyncio.run(main())


CREATE = {"sync": sync_create, "async": async_create}


@pytest.mark.parametrize("flavour", ["sync", "async"])
@pytest.mark.parametrize("when", ["after", "reset"])
def test_a_lost_answer_is_retried_with_the_same_key_and_creates_once(
    flavour: str, when: str, key: str, proxy: Proxy
) -> None:
    proxy.plan(method="POST", path="^/v1/submissions/from_pdf$", when=when, status=500)
    created = CREATE[flavour](key, pdf_body(), "from_pdf")
    seen = proxy.requests()
    assert [r["outcome"] for r in seen] == [500 if when == "after" else "reset", 201]
    assert seen[0]["idempotencyKey"] and seen[0]["idempotencyKey"] == seen[1]["idempotencyKey"]
    listed = [s["id"] for s in Paraph(key, base_url=BASE_URL).list_submissions()]
    assert listed == [created], "Paraph made the submission once, and the retry answered it"


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_a_429_is_retried_after_its_retry_after(flavour: str, key: str, proxy: Proxy) -> None:
    proxy.plan(method="POST", path="^/v1/submissions/from_html$", when="before", status=429,
               headers={"retry-after": "1"})
    CREATE[flavour](key, html_body(), "from_html")
    first, second = proxy.requests()
    assert first["outcome"] == 429 and second["outcome"] == 201
    assert second["at"] - first["at"] >= 1000, "waited Retry-After's second"
    assert first["idempotencyKey"] == second["idempotencyKey"]


def run_both(flavour: str, key: str, call: Callable[[Any], Any]) -> Any:
    """call(client) with a sync client, or awaited with an async one."""
    if flavour == "sync":
        return call(Paraph(key, base_url=Proxy.url, retry=FAST))

    async def main() -> Any:
        result = call(AsyncParaph(key, base_url=Proxy.url, retry=FAST))
        return await result if isinstance(result, Coroutine) else result

    return asyncio.run(main())


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_a_422_is_not_retried_and_its_error_is_typed(flavour: str, key: str, proxy: Proxy) -> None:
    body = html_body()
    body["submitters"] = [{"role": "Client", "email": "not an address"}]
    with pytest.raises(InvalidRequestError) as raised:
        run_both(flavour, key, lambda c: c.create_submission_from_html(body))
    error = raised.value
    assert (error.status, error.type, error.code) == (422, "invalid_request_error", "invalid_request")
    assert error.param == "submitters[0].email" and error.message.startswith("submitters[0].email")
    assert error.request_id and error.request_id.startswith("req_")
    assert len(proxy.requests()) == 1


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_a_404_and_a_409_are_not_retried(flavour: str, key: str, proxy: Proxy) -> None:
    with pytest.raises(NotFoundError) as missing:
        run_both(flavour, key, lambda c: c.get_submission("sub_" + "0" * 24))
    assert (missing.value.status, missing.value.code) == (404, "resource_not_found")
    proxy.plan(method="GET", path="^/v1/health$", when="before", status=409)
    with pytest.raises(ConflictError) as conflict:
        run_both(flavour, key, lambda c: c.get_health())
    assert (conflict.value.status, conflict.value.code) == (409, "injected_fault")
    assert [r["outcome"] for r in proxy.requests()] == [404, 409], "each sent once"


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_a_409_idempotency_key_in_use_is_retried_after_its_retry_after(flavour: str, key: str, proxy: Proxy) -> None:
    # The first request with the key is still running: nothing was done, so the SDK waits and asks again.
    proxy.plan(
        method="POST",
        path="^/v1/submissions/from_html$",
        when="before",
        status=409,
        code="idempotency_key_in_use",
        headers={"retry-after": "1"},
    )
    created = CREATE[flavour](key, html_body(), "from_html")
    assert created.startswith("sub_")
    seen = proxy.requests()
    assert [r["outcome"] for r in seen] == [409, 201]
    assert seen[0]["idempotencyKey"] == seen[1]["idempotencyKey"], "the same key on the retry"
    assert seen[1]["at"] - seen[0]["at"] >= 1000, "Retry-After honoured"


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_a_5xx_on_a_read_is_retried(flavour: str, key: str, proxy: Proxy) -> None:
    proxy.plan(method="GET", path="^/v1/health$", when="before", status=503, times=2)
    health = run_both(flavour, key, lambda c: c.get_health())
    assert health["status"] == "ok"
    assert [r["outcome"] for r in proxy.requests()] == [503, 503, 200]


class SilentServer:
    """A TCP server on loopback that accepts and never answers (a hung upstream)."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.accepted = threading.Event()
        self.closed_by_client = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        conn, _ = self.sock.accept()
        self.accepted.set()
        while conn.recv(65536):
            pass
        self.closed_by_client.set()
        conn.close()


def test_sync_timeout_raises_api_timeout_error() -> None:
    server = SilentServer()
    client = Paraph("sk_test_" + "x" * 32, base_url=server.url, timeout=0.3, max_retries=0)
    started = time.monotonic()
    with pytest.raises(APITimeoutError):
        client.get_health()
    assert time.monotonic() - started < 5


def test_async_timeout_and_task_cancellation() -> None:
    async def main() -> None:
        hung = SilentServer()
        with pytest.raises(APITimeoutError):
            await AsyncParaph("sk_test_" + "x" * 32, base_url=hung.url, timeout=0.3, max_retries=0).get_health()
        server = SilentServer()
        task = asyncio.create_task(AsyncParaph("sk_test_" + "x" * 32, base_url=server.url).get_health())
        await asyncio.to_thread(server.accepted.wait, 5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await asyncio.to_thread(server.closed_by_client.wait, 5), "cancelling closed the connection"

    asyncio.run(main())
