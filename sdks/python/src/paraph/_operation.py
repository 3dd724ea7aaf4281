# One API operation as the request core sees it (docs/decisions/0015-python-sdk.md): the generated
# table in _generated.py holds one per /v1 route of docs/openapi.yaml.
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Operation:
    method: str
    #: The path with its parameters in braces: /v1/submissions/{id}.
    path: str
    #: It takes an Idempotency-Key (docs/api.md#idempotency): the client sends one on every call.
    idempotent: bool = False
