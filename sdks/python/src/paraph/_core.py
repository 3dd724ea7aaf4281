# What the sync and async clients share, with no I/O (docs/decisions/0015-python-sdk.md): the
# request a call makes (URL, headers, JSON body, its Idempotency-Key made once per call), what an
# answer becomes (the parsed body or a typed error), and the retry rules (docs/api.md#errors):
# 429 always; 5xx and lost connections when the request is safe to repeat; never another 4xx.
from __future__ import annotations

import email.utils
import json
import platform
import random
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from ._operation import Operation
from .errors import APIError, error_class

VERSION = "0.1.0"
USER_AGENT = f"paraph-python/{VERSION} Python/{platform.python_version()}"
#: Methods whose repetition changes nothing more than the first did (RFC 9110 §9.2.2).
_REPEATABLE_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE"})


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter: before retry n (from 0), a random wait in
    [0, min(max_delay, initial_delay * 2**n)], or Retry-After's seconds when the API gave them
    (at least that long; more than max_retry_after and the error is raised instead)."""

    max_retries: int = 3
    initial_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0

    def delay(self, retry: int, retry_after: float | None) -> float:
        jitter = random.uniform(0, min(self.max_delay, self.initial_delay * 2**retry))
        return jitter if retry_after is None else max(retry_after, jitter)


@dataclass(frozen=True)
class Request:
    method: str
    url: str
    headers: dict[str, str]
    body: bytes | None
    #: Sent again after a 5xx or a lost answer: a GET/PUT/DELETE, or a POST with its Idempotency-Key.
    repeatable: bool


def prepare(
    base_url: str,
    api_key: str,
    op: Operation,
    *,
    path: Mapping[str, str] | None,
    query: Mapping[str, Any] | None,
    body: Any,
    idempotency_key: str | None,
) -> Request:
    url_path = op.path
    for name, value in (path or {}).items():
        url_path = url_path.replace("{" + name + "}", quote(str(value), safe=""))
    pairs = [(k, _query_value(v)) for k, v in (query or {}).items() if v is not None]
    url = base_url.rstrip("/") + url_path + (f"?{urlencode(pairs)}" if pairs else "")
    headers = {"Authorization": f"Bearer {api_key}", "Accept": "application/json", "User-Agent": USER_AGENT}
    data = None
    if body is not None:
        data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        headers["Content-Type"] = "application/json"
    if op.idempotent:
        # docs/api.md#idempotency: one key per call, the same on each of its retries.
        headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
    repeatable = op.method in _REPEATABLE_METHODS or op.idempotent
    return Request(op.method, url, headers, data, repeatable)


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def target_of(url: str) -> tuple[str, str, int, str]:
    """scheme, host, port and request target of an absolute http(s) URL."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"base_url must be an absolute http or https URL, not {url!r}")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, target


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Retry-After as seconds, from its delay-seconds or HTTP-date form."""
    value = headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def should_retry_status(request: Request, status: int, code: str | None = None) -> bool:
    # 409 idempotency_key_in_use: the first request with this key is still running
    # (docs/api.md#idempotency); like a 429, nothing was done, so any request may go again.
    not_run = status == 429 or (status == 409 and code == "idempotency_key_in_use")
    return not_run or (status >= 500 and request.repeatable)


def should_retry_error(request: Request, error: BaseException) -> bool:
    # A refused connection never reached the API: any request may go again.
    return isinstance(error, ConnectionRefusedError) or request.repeatable


def result_of(status: int, headers: Mapping[str, str], body: bytes) -> Any:
    """A success's body: JSON parsed, another type as bytes, nothing as None."""
    if not body:
        return None
    if headers.get("content-type", "").split(";")[0].strip() == "application/json":
        return json.loads(body)
    return body


def api_error(status: int, headers: Mapping[str, str], body: bytes) -> APIError:
    """The typed error of a 4xx or 5xx answer, from its envelope (docs/api.md#errors)."""
    envelope: dict[str, Any] = {}
    try:
        parsed = json.loads(body)
        if isinstance(parsed, dict) and isinstance(parsed.get("error"), dict):
            envelope = parsed["error"]
    except ValueError:
        pass
    message = envelope.get("message") or body.decode("utf-8", "replace")[:500] or f"HTTP {status}"
    return error_class(status)(
        str(message),
        status=status,
        type=envelope.get("type"),
        code=envelope.get("code"),
        param=envelope.get("param"),
        request_id=headers.get("request-id"),
        retry_after=retry_after_seconds(headers),
        headers=headers,
        body=body,
    )
