from enum import StrEnum

class StreamWidgetEventsErrorDetailCode(StrEnum):
    API_VERSION_INVALID = "api_version_invalid"
    ORIGIN_NOT_ALLOWED = "origin_not_allowed"
    PARAMETER_INVALID = "parameter_invalid"
    PARAMETER_MISSING = "parameter_missing"
    PARAMETER_UNKNOWN = "parameter_unknown"
    RATE_LIMIT_EXCEEDED = "rate_limit_exceeded"
    SERVICE_UNAVAILABLE = "service_unavailable"
    WIDGET_SESSION_INVALID = "widget_session_invalid"

    def __str__(self) -> str:
        return str(self.value)
