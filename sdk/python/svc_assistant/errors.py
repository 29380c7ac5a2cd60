"""Errors the API answers, as exceptions by the error's ``type`` (Stripe's shape).

The API's error body is ``{"error": {"type", "code", "message", "param"?}}``; ``code`` is the
machine-readable reason (``parameter_invalid``, ``resource_missing``, ``whatsapp_window_closed``…) and
``param`` the field at fault. Every error carries ``type``, ``code``, ``param``, ``message``,
``status_code`` and ``request_id`` (the ``Request-Id`` header: quote it to support). An
``invalid_request_error`` is raised as the subclass of its status (:class:`NotFoundError`,
:class:`UnprocessableEntityError`…), so ``except InvalidRequestError`` still catches all of them.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Type


class SvcError(Exception):
    """An error answered by the API, or none at all (:class:`APIConnectionError`, status 0)."""

    def __init__(
        self,
        message: str,
        *,
        type: str,
        code: str,
        param: Optional[str] = None,
        status_code: int = 0,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.type = type
        self.code = code
        self.param = param
        self.status_code = status_code
        self.request_id = request_id
        self.retry_after = retry_after
        self.body = body

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(status={self.status_code}, code={self.code!r}, param={self.param!r}, message={self.message!r})"


class InvalidRequestError(SvcError):
    """400/404/422: the request is wrong (``param`` names the field)."""


class BadRequestError(InvalidRequestError):
    """400: a parameter is missing or malformed (``code`` ``parameter_missing``, ``parameter_invalid``…)."""


class NotFoundError(InvalidRequestError):
    """404: no such object (``code`` ``resource_missing``)."""


class ConflictError(InvalidRequestError):
    """409: the object's state does not allow this (``code`` names why)."""


class UnprocessableEntityError(InvalidRequestError):
    """422: well-formed but refused (``code``: ``whatsapp_window_closed``, ``number_on_do_not_call_list``…)."""


class AuthenticationError(SvcError):
    """401: no key, or a key that is unknown or revoked."""


class PermissionError(SvcError):  # noqa: A001 - the API's error type name
    """403: the key may not do this."""


class IdempotencyError(SvcError):
    """409/422 about an ``Idempotency-Key`` (in use by a running request, or reused for another)."""


class RateLimitError(SvcError):
    """429: too many requests (``retry_after`` says when to come back)."""


class APIError(SvcError):
    """5xx: the service (or a dependency: 503 ``service_unavailable``) failed."""


class APIConnectionError(SvcError):
    """No answer: the connection failed or the attempt's deadline passed."""


class APIResponseValidationError(SvcError):
    """A 2xx answer that does not match the SDK's model (``body`` holds it): an SDK older than the API?"""


class SignatureVerificationError(SvcError):
    """A webhook delivery whose ``Svc-Signature`` does not verify."""


ERROR_CLASSES: Dict[str, Type[SvcError]] = {
    "invalid_request_error": InvalidRequestError,
    "authentication_error": AuthenticationError,
    "permission_error": PermissionError,
    "idempotency_error": IdempotencyError,
    "rate_limit_error": RateLimitError,
    "api_error": APIError,
}
"""The error class of each ``error.type``."""

STATUS_CLASSES: Dict[int, Type[SvcError]] = {
    400: BadRequestError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
}
"""The subclass of :class:`InvalidRequestError` of each HTTP status."""
