"""Verification of webhook deliveries: ``svc_assistant.webhooks.construct_event(payload, header, secret)``.

The ``Svc-Signature`` header is ``t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>``, with
one ``v1`` per active secret while a rotation overlaps. A delivery verifies when one ``v1`` matches under
one of the secrets and ``t`` is within the tolerance (300 s, Stripe's) of now, which stops replays.
The event comes back as the model of its ``type`` (``CallEvent`` for ``call.ended``…); a type this SDK
does not know (a newer API version's) as a :class:`~svc_assistant.GenericEvent`, not an error.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from typing import Optional, Sequence, Union

from ._generated.resources import AnyEvent, parse_event
from .errors import SignatureVerificationError

DEFAULT_TOLERANCE = 300


def _fail(message: str) -> SignatureVerificationError:
    return SignatureVerificationError(message, type="invalid_request_error", code="signature_invalid", status_code=400)


def construct_event(
    payload: Union[bytes, str],
    header: Optional[str],
    secret: Union[str, Sequence[str]],
    tolerance: int = DEFAULT_TOLERANCE,
) -> AnyEvent:
    """Verifies a delivery and returns its event, typed by its ``type`` (a GenericEvent when unknown).

    ``payload`` is the raw body exactly as received (parse only after), ``header`` the ``Svc-Signature``
    header, ``secret`` the endpoint's signing secret, or a list of them during a rotation.
    Raises :class:`SignatureVerificationError` when the header is missing or malformed, the timestamp is
    outside ``tolerance`` seconds, or no signature matches.
    """
    raw = payload.decode("utf-8") if isinstance(payload, bytes) else payload
    if not header:
        raise _fail("No Svc-Signature header.")
    parts = [p.strip().split("=", 1) for p in header.split(",")]
    stamps = [v[0] for k, *v in parts if k == "t" and v]
    try:
        t = int(stamps[0])
    except (IndexError, ValueError):
        raise _fail("The Svc-Signature header has no timestamp.") from None
    if abs(time.time() - t) > tolerance:
        raise _fail("The Svc-Signature timestamp is outside the tolerance.")
    signatures = [v[0] for k, *v in parts if k == "v1" and v and re.fullmatch(r"[0-9a-f]{64}", v[0])]
    secrets = [secret] if isinstance(secret, str) else list(secret)
    for s in secrets:
        expected = hmac.new(s.encode("utf-8"), f"{t}.{raw}".encode("utf-8"), hashlib.sha256).hexdigest()
        if any(hmac.compare_digest(expected, sig) for sig in signatures):
            return parse_event(json.loads(raw))
    raise _fail("No signature matches the payload and secret.")


def signature_header(payload: str, secret: str, timestamp: Optional[int] = None) -> str:
    """A ``Svc-Signature`` header for ``payload`` under ``secret`` at ``timestamp``: for your tests."""
    t = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode("utf-8"), f"{t}.{payload}".encode("utf-8"), hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"
