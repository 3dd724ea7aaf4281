# The synchronous client (sdks/python/README.md): http.client, a new connection per attempt, a
# deadline per attempt covering connect, send and the whole answer, and the retry loop of _core.
from __future__ import annotations

import http.client
import os
import ssl
import time
from collections.abc import Mapping
from typing import Any

from . import _core
from ._generated import SyncOperations
from ._operation import Operation
from ._pagination import Page, SyncPager
from .errors import APIConnectionError, APIError, APITimeoutError

DEFAULT_TIMEOUT = 80.0


class Paraph(SyncOperations):
    """A client of the Paraph API. `api_key` defaults to $PARAPH_API_KEY, `base_url` to
    $PARAPH_BASE_URL or http://127.0.0.1:8080; `timeout` is seconds per attempt."""

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = 3,
        retry: _core.RetryPolicy | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        key = api_key or os.environ.get("PARAPH_API_KEY")
        if not key:
            raise ValueError("an API key is needed: Paraph(api_key=...) or $PARAPH_API_KEY")
        self.api_key = key
        self.base_url = base_url or os.environ.get("PARAPH_BASE_URL") or "http://127.0.0.1:8080"
        _core.target_of(self.base_url)
        self.timeout = timeout
        self.retry = retry or _core.RetryPolicy(max_retries=max_retries)
        self._ssl = ssl_context

    def _request(
        self,
        op: Operation,
        *,
        path: dict[str, str] | None = None,
        query: dict[str, Any] | None = None,
        body: Any = None,
        idempotency_key: str | None = None,
        timeout: float | None = None,
    ) -> Any:
        request = _core.prepare(
            self.base_url, self.api_key, op, path=path, query=query, body=body, idempotency_key=idempotency_key
        )
        retries = 0
        while True:
            try:
                status, headers, data = self._send(request, timeout or self.timeout)
            except (OSError, http.client.HTTPException) as error:
                if retries >= self.retry.max_retries or not _core.should_retry_error(request, error):
                    raise _connection_error(error) from error
                time.sleep(self.retry.delay(retries, None))
                retries += 1
                continue
            if status < 300:
                return _core.result_of(status, headers, data)
            error_ = _core.api_error(status, headers, data)
            if not self._retries_status(request, error_, retries):
                raise error_
            time.sleep(self.retry.delay(retries, error_.retry_after))
            retries += 1

    def _retries_status(self, request: _core.Request, error: APIError, retries: int) -> bool:
        too_long = error.retry_after is not None and error.retry_after > self.retry.max_retry_after
        return retries < self.retry.max_retries and not too_long and _core.should_retry_status(
            request, error.status, error.code
        )

    def _paginate(
        self,
        op: Operation,
        *,
        path: dict[str, str] | None = None,
        query: dict[str, Any] | None = None,
        timeout: float | None = None,
    ) -> SyncPager[Any]:
        params = dict(query or {})
        start = params.pop("cursor", None)

        def fetch(cursor: str | None) -> Page:
            page: Page = self._request(op, path=path, query={**params, "cursor": cursor}, timeout=timeout)
            return page

        return SyncPager(fetch, start)

    def _send(self, request: _core.Request, timeout: float) -> tuple[int, Mapping[str, str], bytes]:
        scheme, host, port, target = _core.target_of(request.url)
        deadline = time.monotonic() + timeout
        conn: http.client.HTTPConnection
        if scheme == "https":
            conn = http.client.HTTPSConnection(host, port, timeout=timeout, context=self._ssl)
        else:
            conn = http.client.HTTPConnection(host, port, timeout=timeout)
        try:
            conn.request(request.method, target, body=request.body, headers=request.headers)
            _left(conn, deadline)
            response = conn.getresponse()
            chunks = []
            while True:
                _left(conn, deadline)
                chunk = response.read(65536)
                if not chunk:
                    break
                chunks.append(chunk)
            headers = {k.lower(): v for k, v in response.getheaders()}
            return response.status, headers, b"".join(chunks)
        finally:
            conn.close()


def _left(conn: http.client.HTTPConnection, deadline: float) -> None:
    """Shortens the socket's timeout to what is left of the attempt's deadline."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the request's timeout elapsed")
    if conn.sock is not None:
        conn.sock.settimeout(left)


def _connection_error(error: BaseException) -> APIConnectionError:
    if isinstance(error, TimeoutError):
        return APITimeoutError(f"no complete answer in time: {error}")
    return APIConnectionError(f"no answer from Paraph: {error!r}")
