from enum import StrEnum

class RetrieveSipTrunkErrorDetailCode(StrEnum):
    API_KEY_INVALID = "api_key_invalid"
    API_KEY_MISSING = "api_key_missing"
    API_VERSION_INVALID = "api_version_invalid"
    PARAMETER_INVALID = "parameter_invalid"
    PARAMETER_UNKNOWN = "parameter_unknown"
    RATE_LIMIT_EXCEEDED = "rate_limit_exceeded"
    RESOURCE_MISSING = "resource_missing"
    SCOPE_MISSING = "scope_missing"
    SERVICE_UNAVAILABLE = "service_unavailable"
    URL_INVALID = "url_invalid"

    def __str__(self) -> str:
        return str(self.value)
