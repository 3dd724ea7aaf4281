# The Paraph API client for Python (sdks/python/README.md): Paraph (sync), AsyncParaph (asyncio),
# their errors, the webhook verifier and the API's types (paraph.types).
from . import types, webhooks
from ._async import AsyncParaph
from ._core import VERSION as __version__
from ._core import RetryPolicy
from ._pagination import AsyncPager, SyncPager
from ._sync import Paraph
from .errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    ParaphError,
    RateLimitError,
    ServerError,
)

__all__ = [
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "AsyncPager",
    "AsyncParaph",
    "AuthenticationError",
    "ConflictError",
    "InvalidRequestError",
    "NotFoundError",
    "Paraph",
    "ParaphError",
    "RateLimitError",
    "RetryPolicy",
    "ServerError",
    "SyncPager",
    "__version__",
    "types",
    "webhooks",
]
