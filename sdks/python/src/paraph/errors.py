# The errors the clients raise (docs/api.md#errors): an answer of the API that is not a success is
# an APIError carrying the envelope's type, code, message and param, the HTTP status and the
# Request-Id; a request that got no answer is an APIConnectionError (APITimeoutError for a timeout).
from __future__ import annotations

from collections.abc import Mapping


class ParaphError(Exception):
    """Every error of this package."""


class APIError(ParaphError):
    """The API answered with a 4xx or 5xx. Branch on `status`, then on `code`, with a default case."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        type: str | None,
        code: str | None,
        param: str | None = None,
        request_id: str | None = None,
        retry_after: float | None = None,
        headers: Mapping[str, str] | None = None,
        body: bytes = b"",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.type = type
        self.code = code
        self.param = param
        self.request_id = request_id
        #: Seconds the API asked to wait (Retry-After), for a 429 or 503.
        self.retry_after = retry_after
        self.headers: Mapping[str, str] = dict(headers or {})
        self.body = body

    def __str__(self) -> str:
        where = f", request {self.request_id}" if self.request_id else ""
        return f"{self.status} {self.code}: {self.message}{where}"


class AuthenticationError(APIError):
    """401: missing_api_key or invalid_api_key."""


class NotFoundError(APIError):
    """404: the resource does not exist in the key's account and environment."""


class ConflictError(APIError):
    """409: the resource's state refuses it (or the Idempotency-Key is in use by a running request)."""


class InvalidRequestError(APIError):
    """Any other 4xx: the request itself is wrong; sending it again unchanged fails again."""


class RateLimitError(APIError):
    """429: retried by the client after Retry-After; raised once its retries are spent."""


class ServerError(APIError):
    """5xx: retried when the request is safe to repeat; raised once the retries are spent."""


class APIConnectionError(ParaphError):
    """No answer: the connection was refused, reset or closed before a complete answer."""


class APITimeoutError(APIConnectionError):
    """No complete answer within the timeout."""


def error_class(status: int) -> type[APIError]:
    if status == 401:
        return AuthenticationError
    if status == 404:
        return NotFoundError
    if status == 409:
        return ConflictError
    if status == 429:
        return RateLimitError
    if status >= 500:
        return ServerError
    return InvalidRequestError
