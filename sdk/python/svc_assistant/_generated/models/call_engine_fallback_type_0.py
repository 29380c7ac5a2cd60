from enum import StrEnum

class CallEngineFallbackType0(StrEnum):
    ACCEPT_FAILED = "accept_failed"
    NO_SIMULATOR = "no_simulator"
    NO_WEBHOOK = "no_webhook"
    SESSION_ERROR = "session_error"

    def __str__(self) -> str:
        return str(self.value)
