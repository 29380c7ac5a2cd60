from enum import StrEnum

class SendMessageErrorDetailCode(StrEnum):
    API_KEY_INVALID = "api_key_invalid"
    API_KEY_MISSING = "api_key_missing"
    API_VERSION_INVALID = "api_version_invalid"
    BODY_INVALID = "body_invalid"
    BODY_TOO_LARGE = "body_too_large"
    CONTENT_ENCODING_UNSUPPORTED = "content_encoding_unsupported"
    CONTENT_TYPE_UNSUPPORTED = "content_type_unsupported"
    CONVERSATION_MISSING = "conversation_missing"
    IDEMPOTENCY_KEY_INVALID = "idempotency_key_invalid"
    IDEMPOTENCY_KEY_IN_USE = "idempotency_key_in_use"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    MESSAGING_NOT_CONFIGURED = "messaging_not_configured"
    PARAMETER_INVALID = "parameter_invalid"
    PARAMETER_MISSING = "parameter_missing"
    PARAMETER_UNKNOWN = "parameter_unknown"
    RATE_LIMIT_EXCEEDED = "rate_limit_exceeded"
    RECIPIENT_OPTED_OUT = "recipient_opted_out"
    RESOURCE_MISSING = "resource_missing"
    SCOPE_MISSING = "scope_missing"
    SERVICE_UNAVAILABLE = "service_unavailable"
    SMS_NUMBER_NOT_CONNECTED = "sms_number_not_connected"
    WHATSAPP_NUMBER_NOT_CONNECTED = "whatsapp_number_not_connected"
    WHATSAPP_WINDOW_CLOSED = "whatsapp_window_closed"

    def __str__(self) -> str:
        return str(self.value)
