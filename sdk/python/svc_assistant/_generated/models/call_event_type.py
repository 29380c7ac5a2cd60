from enum import StrEnum

class CallEventType(StrEnum):
    CALL_ANALYZED = "call.analyzed"
    CALL_ENDED = "call.ended"
    CALL_SCHEDULED = "call.scheduled"
    CALL_STARTED = "call.started"
    CALL_TRANSFERRED = "call.transferred"
    CALL_TRANSFER_FAILED = "call.transfer_failed"

    def __str__(self) -> str:
        return str(self.value)
