from enum import StrEnum

class CallTransferReasonType0(StrEnum):
    BUSY = "busy"
    DESTINATION_NOT_ALLOWED = "destination_not_allowed"
    DO_NOT_CALL = "do_not_call"
    FAILED = "failed"
    HUNG_UP = "hung_up"
    NO_ANSWER = "no_answer"
    OUTSIDE_CALLING_HOURS = "outside_calling_hours"

    def __str__(self) -> str:
        return str(self.value)
