# Iteration over a list through its cursors (docs/api.md#pagination): a pager fetches the first page
# when iterated, then follows next_cursor while has_more; `for` / `async for` yields the items of
# every page, .pages() the pages themselves.
from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, Generic, TypeVar

T = TypeVar("T")

#: A page as the API answers it: {data, has_more, next_cursor}.
Page = dict[str, Any]


def _next_cursor(page: Page) -> str | None:
    cursor = page.get("next_cursor")
    return cursor if page.get("has_more") and isinstance(cursor, str) and cursor else None


class SyncPager(Generic[T]):
    """Every item of a list, page after page; nothing is fetched until it is iterated."""

    def __init__(self, fetch: Callable[[str | None], Page], cursor: str | None = None) -> None:
        self._fetch = fetch
        self._cursor = cursor

    def pages(self) -> Iterator[Page]:
        cursor = self._cursor
        while True:
            page = self._fetch(cursor)
            yield page
            cursor = _next_cursor(page)
            if cursor is None:
                return

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page["data"]


class AsyncPager(Generic[T]):
    """As SyncPager, for `async for`."""

    def __init__(self, fetch: Callable[[str | None], Awaitable[Page]], cursor: str | None = None) -> None:
        self._fetch = fetch
        self._cursor = cursor

    async def pages(self) -> AsyncIterator[Page]:
        cursor = self._cursor
        while True:
            page = await self._fetch(cursor)
            yield page
            cursor = _next_cursor(page)
            if cursor is None:
                return

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.pages():
            for item in page["data"]:
                yield item
