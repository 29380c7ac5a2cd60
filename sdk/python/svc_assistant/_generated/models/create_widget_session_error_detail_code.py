from enum import StrEnum

class CreateWidgetSessionErrorDetailCode(StrEnum):
    API_KEY_INVALID = "api_key_invalid"
    API_KEY_MISSING = "api_key_missing"
    API_VERSION_INVALID = "api_version_invalid"
    BODY_INVALID = "body_invalid"
    BODY_TOO_LARGE = "body_too_large"
    CONTENT_ENCODING_UNSUPPORTED = "content_encoding_unsupported"
    CONTENT_TYPE_UNSUPPORTED = "content_type_unsupported"
    IDENTITY_REQUIRED = "identity_required"
    IDENTITY_VERIFICATION_FAILED = "identity_verification_failed"
    ORIGIN_NOT_ALLOWED = "origin_not_allowed"
    PARAMETER_INVALID = "parameter_invalid"
    PARAMETER_MISSING = "parameter_missing"
    PARAMETER_UNKNOWN = "parameter_unknown"
    PUBLISHABLE_KEY_REQUIRED = "publishable_key_required"
    RATE_LIMIT_EXCEEDED = "rate_limit_exceeded"
    SERVICE_UNAVAILABLE = "service_unavailable"

    def __str__(self) -> str:
        return str(self.value)
