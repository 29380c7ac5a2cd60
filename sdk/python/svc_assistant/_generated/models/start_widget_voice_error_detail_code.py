from enum import StrEnum

class StartWidgetVoiceErrorDetailCode(StrEnum):
    AGENT_MISSING = "agent_missing"
    API_VERSION_INVALID = "api_version_invalid"
    BODY_INVALID = "body_invalid"
    BODY_TOO_LARGE = "body_too_large"
    CALL_IN_PROGRESS = "call_in_progress"
    CONCURRENCY_LIMIT = "concurrency_limit"
    CONTENT_ENCODING_UNSUPPORTED = "content_encoding_unsupported"
    CONTENT_TYPE_UNSUPPORTED = "content_type_unsupported"
    IDEMPOTENCY_KEY_INVALID = "idempotency_key_invalid"
    IDEMPOTENCY_KEY_IN_USE = "idempotency_key_in_use"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    ORIGIN_NOT_ALLOWED = "origin_not_allowed"
    PARAMETER_INVALID = "parameter_invalid"
    PARAMETER_MISSING = "parameter_missing"
    PARAMETER_UNKNOWN = "parameter_unknown"
    RATE_LIMIT_EXCEEDED = "rate_limit_exceeded"
    SERVICE_UNAVAILABLE = "service_unavailable"
    VOICE_NOT_CONFIGURED = "voice_not_configured"
    WIDGET_SESSION_INVALID = "widget_session_invalid"

    def __str__(self) -> str:
        return str(self.value)
