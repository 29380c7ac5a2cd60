from enum import StrEnum

class TranscriptTurnOutcome(StrEnum):
    CONFIRMED = "confirmed"
    DROPPED = "dropped"
    HELD = "held"

    def __str__(self) -> str:
        return str(self.value)
