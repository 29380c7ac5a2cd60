from enum import StrEnum

class CallTransferStatus(StrEnum):
    BRIEFING = "briefing"
    DIALING = "dialing"
    FAILED = "failed"
    TRANSFERRED = "transferred"

    def __str__(self) -> str:
        return str(self.value)
