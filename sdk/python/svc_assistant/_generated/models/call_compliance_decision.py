from enum import StrEnum

class CallComplianceDecision(StrEnum):
    DIAL = "dial"
    HOLD = "hold"
    REFUSE = "refuse"

    def __str__(self) -> str:
        return str(self.value)
