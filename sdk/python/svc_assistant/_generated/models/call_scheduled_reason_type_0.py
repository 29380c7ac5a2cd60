from enum import StrEnum

class CallScheduledReasonType0(StrEnum):
    CALLING_HOURS = "calling_hours"

    def __str__(self) -> str:
        return str(self.value)
