from enum import StrEnum

class CallComplianceTransferLegsItemDecision(StrEnum):
    DIAL = "dial"
    HOLD = "hold"
    REFUSE = "refuse"

    def __str__(self) -> str:
        return str(self.value)
