# Verifying a webhook delivery (docs/webhooks.md#the-signature): `Paraph-Signature: t=<unix>,v1=<hex>`
# with one v1 per secret in force; v1 is the hex HMAC-SHA256 of `t + "." + the raw body`, keyed
# with the endpoint's whole `whsec_…` secret. Checked on the raw bytes, in constant time, against
# every secret given (a rotation), t within the tolerance of this machine's clock; the JSON is
# parsed only once the signature holds.
from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Sequence
from typing import cast

from ._generated import WEBHOOK_EVENT_TYPES, WebhookEvent
from .errors import ParaphError

SIGNATURE_HEADER = "Paraph-Signature"
DEFAULT_TOLERANCE_SECONDS = 300

__all__ = ["SIGNATURE_HEADER", "WEBHOOK_EVENT_TYPES", "WebhookEvent", "WebhookVerificationError", "verify"]


class WebhookVerificationError(ParaphError):
    """The delivery is refused: answer it 400 and do nothing with its body."""


def verify(
    raw_body: bytes,
    header: str | None,
    secrets: Sequence[str],
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    *,
    now: float | None = None,
) -> WebhookEvent:
    """The event of a delivery whose Paraph-Signature holds for one of `secrets` and whose
    timestamp is within `tolerance_seconds` of `now` (default: this machine's clock);
    raises WebhookVerificationError otherwise."""
    if isinstance(secrets, str) or not secrets:
        raise ValueError("secrets is a list of one or more whsec_… secrets")
    if not isinstance(raw_body, (bytes, bytearray)):
        raise TypeError("raw_body is the request's body as bytes, exactly as received")
    timestamp, signatures = _parse(header)
    signed = str(timestamp).encode("ascii") + b"." + bytes(raw_body)
    expected = [hmac.new(s.encode("utf-8"), signed, hashlib.sha256).digest() for s in secrets]
    # Every pair is compared, so the time taken does not say which secret or signature matched.
    matched = False
    for given in signatures:
        for digest in expected:
            matched |= hmac.compare_digest(given, digest)
    if not matched:
        raise WebhookVerificationError("no signature of Paraph-Signature matches these secrets")
    clock = time.time() if now is None else now
    if abs(clock - timestamp) > tolerance_seconds:
        raise WebhookVerificationError(f"timestamp {timestamp} is more than {tolerance_seconds} s from now")
    try:
        event = json.loads(raw_body)
    except ValueError as error:
        raise WebhookVerificationError("the signed body is not JSON") from error
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise WebhookVerificationError("the signed body is not an event")
    return cast(WebhookEvent, event)


def _parse(header: str | None) -> tuple[int, list[bytes]]:
    if not header:
        raise WebhookVerificationError("no Paraph-Signature header")
    timestamp: int | None = None
    signatures: list[bytes] = []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isdigit() and value.isascii():
            timestamp = int(value)
        elif key == "v1" and len(value) == 64:
            try:
                signatures.append(bytes.fromhex(value))
            except ValueError:
                continue
    if timestamp is None or not signatures:
        raise WebhookVerificationError("Paraph-Signature has no t or no v1")
    return timestamp, signatures
