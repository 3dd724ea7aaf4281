# A minimal HTTP/1.1 client on asyncio streams for the async client (docs/decisions/0015-python-sdk.md):
# one request per connection (Connection: close), the answer's body by Content-Length, chunked
# transfer coding or end of stream. Cancelling the awaiting task closes the socket at once.
from __future__ import annotations

import asyncio
import ssl
from collections.abc import Mapping

from ._core import target_of

_MAX_HEAD = 64 * 1024


async def send(
    method: str,
    url: str,
    headers: Mapping[str, str],
    body: bytes | None,
    ssl_context: ssl.SSLContext | None = None,
) -> tuple[int, dict[str, str], bytes]:
    scheme, host, port, target = target_of(url)
    tls = (ssl_context or ssl.create_default_context()) if scheme == "https" else None
    reader, writer = await asyncio.open_connection(host, port, ssl=tls, limit=_MAX_HEAD)
    try:
        default_port = 443 if scheme == "https" else 80
        head = [f"{method} {target} HTTP/1.1", f"Host: {host if port == default_port else f'{host}:{port}'}"]
        head += [f"{name}: {value}" for name, value in headers.items()]
        head += [f"Content-Length: {len(body or b'')}", "Connection: close", "", ""]
        writer.write("\r\n".join(head).encode("latin-1") + (body or b""))
        await writer.drain()
        status, answer_headers = await _read_head(reader)
        while 100 <= status < 200:  # interim answers (never asked for, but allowed)
            status, answer_headers = await _read_head(reader)
        if method == "HEAD" or status in (204, 304):
            return status, answer_headers, b""
        return status, answer_headers, await _read_body(reader, answer_headers)
    finally:
        writer.close()


async def _read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    line = await reader.readuntil(b"\r\n")
    parts = line.decode("latin-1").split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise ConnectionError(f"not an HTTP/1.x answer: {line[:80]!r}")
    headers: dict[str, str] = {}
    while True:
        raw = await reader.readuntil(b"\r\n")
        if raw == b"\r\n":
            return int(parts[1]), headers
        name, _, value = raw.decode("latin-1").partition(":")
        key = name.strip().lower()
        headers[key] = f"{headers[key]}, {value.strip()}" if key in headers else value.strip()


async def _read_body(reader: asyncio.StreamReader, headers: Mapping[str, str]) -> bytes:
    if "chunked" in headers.get("transfer-encoding", "").lower():
        chunks: list[bytes] = []
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:
                while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
                    pass
                return b"".join(chunks)
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
    length = headers.get("content-length")
    if length is not None:
        return await reader.readexactly(int(length))
    return await reader.read()
