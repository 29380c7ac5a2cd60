"""The official Python SDK of the svc-assistant API.

    from svc_assistant import Svc
    svc = Svc(api_key="sk_test_…", base_url="http://localhost:3000")
    call = svc.calls.create(to="+14155550123", agent_id=agent.id)
    for c in svc.calls.list(status="completed").auto_paging_iter(): print(c.id)
    event = svc_assistant.webhooks.construct_event(raw_body, request.headers["Svc-Signature"], secret)

``AsyncSvc`` is the same with ``await``. See ``_client`` for retries and idempotency keys.
"""

from . import errors, webhooks
from ._client import API_VERSION, AsyncPage, AsyncSvc, Page, Svc
from .errors import (
    APIConnectionError,
    APIError,
    AuthenticationError,
    IdempotencyError,
    InvalidRequestError,
    PermissionError,
    RateLimitError,
    SignatureVerificationError,
    SvcError,
)

__version__ = "2026.10.4"

__all__ = [
    "API_VERSION",
    "AsyncPage",
    "AsyncSvc",
    "Page",
    "Svc",
    "errors",
    "webhooks",
    "SvcError",
    "APIConnectionError",
    "APIError",
    "AuthenticationError",
    "IdempotencyError",
    "InvalidRequestError",
    "PermissionError",
    "RateLimitError",
    "SignatureVerificationError",
]
