from enum import StrEnum

class CreateCallErrorDetailCode(StrEnum):
    API_KEY_INVALID = "api_key_invalid"
    API_KEY_MISSING = "api_key_missing"
    API_VERSION_INVALID = "api_version_invalid"
    BODY_INVALID = "body_invalid"
    BODY_TOO_LARGE = "body_too_large"
    CONCURRENCY_LIMIT = "concurrency_limit"
    CONTENT_ENCODING_UNSUPPORTED = "content_encoding_unsupported"
    CONTENT_TYPE_UNSUPPORTED = "content_type_unsupported"
    DESTINATION_NOT_ALLOWED = "destination_not_allowed"
    FROM_NOT_OWNED = "from_not_owned"
    IDEMPOTENCY_KEY_INVALID = "idempotency_key_invalid"
    IDEMPOTENCY_KEY_IN_USE = "idempotency_key_in_use"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    NUMBER_ON_DO_NOT_CALL = "number_on_do_not_call"
    OUTSIDE_CALLING_HOURS = "outside_calling_hours"
    PARAMETER_INVALID = "parameter_invalid"
    PARAMETER_MISSING = "parameter_missing"
    PARAMETER_UNKNOWN = "parameter_unknown"
    QUOTA_EXCEEDED = "quota_exceeded"
    RATE_LIMIT_EXCEEDED = "rate_limit_exceeded"
    RESOURCE_MISSING = "resource_missing"
    SCOPE_MISSING = "scope_missing"
    SERVICE_UNAVAILABLE = "service_unavailable"
    TELEPHONY_NOT_CONFIGURED = "telephony_not_configured"

    def __str__(self) -> str:
        return str(self.value)
