from enum import StrEnum

class CallTransferReasonType0(StrEnum):
    BUSY = "busy"
    FAILED = "failed"
    HUNG_UP = "hung_up"
    NO_ANSWER = "no_answer"

    def __str__(self) -> str:
        return str(self.value)
