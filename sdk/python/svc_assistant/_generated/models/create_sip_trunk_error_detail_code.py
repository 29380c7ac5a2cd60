from enum import StrEnum

class CreateSipTrunkErrorDetailCode(StrEnum):
    API_KEY_INVALID = "api_key_invalid"
    API_KEY_MISSING = "api_key_missing"
    API_VERSION_INVALID = "api_version_invalid"
    BODY_INVALID = "body_invalid"
    BODY_TOO_LARGE = "body_too_large"
    CONTENT_ENCODING_UNSUPPORTED = "content_encoding_unsupported"
    CONTENT_TYPE_UNSUPPORTED = "content_type_unsupported"
    IDEMPOTENCY_KEY_INVALID = "idempotency_key_invalid"
    IDEMPOTENCY_KEY_IN_USE = "idempotency_key_in_use"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    PARAMETER_INVALID = "parameter_invalid"
    PARAMETER_MISSING = "parameter_missing"
    PARAMETER_UNKNOWN = "parameter_unknown"
    PHONE_NUMBER_ALREADY_CONNECTED = "phone_number_already_connected"
    PHONE_NUMBER_NOT_OWNED = "phone_number_not_owned"
    RATE_LIMIT_EXCEEDED = "rate_limit_exceeded"
    RESOURCE_MISSING = "resource_missing"
    SCOPE_MISSING = "scope_missing"
    SERVICE_UNAVAILABLE = "service_unavailable"
    SIP_TRUNK_REJECTED = "sip_trunk_rejected"
    TELEPHONY_NOT_CONFIGURED = "telephony_not_configured"

    def __str__(self) -> str:
        return str(self.value)
