# Shared set-up of the Python SDK's tests (run by sdks/python/python-sdk.test.ts against a real
# Paraph): the addresses it gives in the environment, a fresh account per test, the fault proxy's
# plan and log (test/fault-proxy.ts), the control server (the worker run now, the app's clock),
# a webhook receiver on loopback, and the request bodies of a PDF and an HTML submission.
from __future__ import annotations

import base64
import http.server
import json
import os
import threading
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from paraph.types import CreateSubmissionFromHtmlBody, CreateSubmissionFromPdfBody

BASE_URL = os.environ["PARAPH_BASE_URL"]
PROXY_URL = os.environ["PARAPH_FAULT_PROXY_URL"]
CONTROL_URL = os.environ["PARAPH_CONTROL_URL"]
PDF_PATH = os.environ["PARAPH_TEST_PDF"]


def call(url: str, method: str = "GET", body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.loads(answer.read())


def fresh_key() -> str:
    """The test key of a new account: each test sees only what it made."""
    return str(call(f"{CONTROL_URL}/account", "POST")["api_key"])


def work(clock_offset_seconds: float = 0) -> None:
    """The app's clock set to now (+ offset), then its due jobs and webhook deliveries run."""
    call(f"{CONTROL_URL}/work", "POST", {"clock_offset_seconds": clock_offset_seconds})


class Proxy:
    """The fault proxy in front of Paraph: faults planned over HTTP, and what reached it."""

    url = PROXY_URL

    def plan(self, **fault: Any) -> None:
        call(f"{PROXY_URL}/__faults", "POST", fault)

    def requests(self) -> list[dict[str, Any]]:
        return list(call(f"{PROXY_URL}/__requests"))

    def clear(self) -> None:
        call(f"{PROXY_URL}/__faults", "DELETE")


@pytest.fixture
def key() -> str:
    return fresh_key()


@pytest.fixture
def proxy() -> Iterator[Proxy]:
    p = Proxy()
    p.clear()
    yield p
    p.clear()


def pdf_base64() -> str:
    with open(PDF_PATH, "rb") as f:
        return base64.b64encode(f.read()).decode()


def pdf_body(email: str = "ann@example.eu") -> CreateSubmissionFromPdfBody:
    return {
        "documents": [
            {
                "name": "Contract",
                "pdf_base64": pdf_base64(),
                "fields": [
                    {"name": "Signature", "type": "signature", "role": "signer",
                     "areas": [{"page": 1, "x": 0.6, "y": 0.85, "w": 0.3, "h": 0.05}]},
                ],
            }
        ],
        "submitters": [{"role": "signer", "email": email, "name": "Ann"}],
        "send_email": False,
    }


def html_body() -> CreateSubmissionFromHtmlBody:
    return {
        "name": "Consulting agreement",
        "html": "<h1>Consulting agreement</h1><p>Signed: {{Signature;role=Client}}</p>",
        "submitters": [{"role": "Client", "email": "alice@example.com", "name": "Alice Martin"}],
        "send_email": False,
    }


class Receiver:
    """A webhook receiver on loopback keeping each delivery's raw body and Paraph-Signature."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[bytes, str]] = []
        deliveries = self.deliveries

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                deliveries.append((raw, self.headers["Paraph-Signature"]))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()
