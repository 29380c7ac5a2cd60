from enum import StrEnum

class TranscriptTurnReason(StrEnum):
    CONFIRMATION_REQUIRED = "confirmation_required"
    INTERRUPTED = "interrupted"
    NOT_CONFIRMED = "not_confirmed"

    def __str__(self) -> str:
        return str(self.value)
