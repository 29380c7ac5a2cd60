"""The official Python SDK of the svc-assistant API.

    from svc_assistant import Svc
    svc = Svc(api_key="svc_sk_test_…", base_url="http://localhost:3000")
    call = svc.calls.create(to="+14155550123", agent_id=agent.id)
    for c in svc.calls.list(status="completed"): print(c.id)          # every page
    event = svc_assistant.webhooks.construct_event(raw_body, request.headers["Svc-Signature"], secret)

``AsyncSvc`` is the same with ``await``. Models: ``svc_assistant.models`` (pydantic); request params:
``svc_assistant.params`` (TypedDicts). See ``_client`` for retries, idempotency keys and options.
"""

from . import errors, webhooks
from ._client import (
    API_VERSION,
    AsyncPage,
    AsyncPager,
    AsyncStream,
    CallStreamEvent,
    GenericEvent,
    RequestOptions,
    Stream,
    SyncPage,
)
from ._generated import models, params
from ._generated.resources import AnyEvent, KnownEvent
from ._svc import AsyncSvc, Svc
from .errors import (
    APIConnectionError,
    APIError,
    APIResponseValidationError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    IdempotencyError,
    InvalidRequestError,
    NotFoundError,
    PermissionError,
    RateLimitError,
    SignatureVerificationError,
    SvcError,
    UnprocessableEntityError,
)

__version__ = "2026.10.4"

__all__ = [
    "API_VERSION",
    "AnyEvent",
    "AsyncPage",
    "AsyncPager",
    "AsyncStream",
    "AsyncSvc",
    "CallStreamEvent",
    "GenericEvent",
    "KnownEvent",
    "RequestOptions",
    "Stream",
    "Svc",
    "SyncPage",
    "errors",
    "models",
    "params",
    "webhooks",
    "SvcError",
    "APIConnectionError",
    "APIError",
    "APIResponseValidationError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "IdempotencyError",
    "InvalidRequestError",
    "NotFoundError",
    "PermissionError",
    "RateLimitError",
    "SignatureVerificationError",
    "UnprocessableEntityError",
]
