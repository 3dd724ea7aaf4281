# The asynchronous client (sdks/python/README.md): the same calls as Paraph, each a coroutine, over
# the asyncio HTTP/1.1 client of _aio_http; a deadline per attempt (asyncio.timeout), the retry
# loop of _core with asyncio.sleep, and task cancellation stopping the call where it is.
from __future__ import annotations

import asyncio
import os
import ssl
from typing import Any

from . import _aio_http, _core
from ._generated import AsyncOperations
from ._operation import Operation
from ._pagination import AsyncPager, Page
from ._sync import DEFAULT_TIMEOUT
from .errors import APIConnectionError, APIError, APITimeoutError


class AsyncParaph(AsyncOperations):
    """As Paraph, with `await client.create_…(…)` and `async for item in client.list_…()`."""

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
            raise ValueError("an API key is needed: AsyncParaph(api_key=...) or $PARAPH_API_KEY")
        self.api_key = key
        self.base_url = base_url or os.environ.get("PARAPH_BASE_URL") or "http://127.0.0.1:8080"
        _core.target_of(self.base_url)
        self.timeout = timeout
        self.retry = retry or _core.RetryPolicy(max_retries=max_retries)
        self._ssl = ssl_context

    async def _request(
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
                async with asyncio.timeout(timeout or self.timeout):
                    status, headers, data = await _aio_http.send(
                        request.method, request.url, request.headers, request.body, self._ssl
                    )
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as error:
                if retries >= self.retry.max_retries or not _core.should_retry_error(request, error):
                    raise _connection_error(error) from error
                await asyncio.sleep(self.retry.delay(retries, None))
                retries += 1
                continue
            if status < 300:
                return _core.result_of(status, headers, data)
            error_ = _core.api_error(status, headers, data)
            if not self._retries_status(request, error_, retries):
                raise error_
            await asyncio.sleep(self.retry.delay(retries, error_.retry_after))
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
    ) -> AsyncPager[Any]:
        params = dict(query or {})
        start = params.pop("cursor", None)

        async def fetch(cursor: str | None) -> Page:
            page: Page = await self._request(op, path=path, query={**params, "cursor": cursor}, timeout=timeout)
            return page

        return AsyncPager(fetch, start)


def _connection_error(error: BaseException) -> APIConnectionError:
    if isinstance(error, TimeoutError):
        return APITimeoutError("no complete answer in time")
    return APIConnectionError(f"no answer from Paraph: {error!r}")
