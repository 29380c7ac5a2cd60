from enum import StrEnum

class CallComplianceTransferLegsItemLeg(StrEnum):
    CALL = "call"
    TRANSFER = "transfer"

    def __str__(self) -> str:
        return str(self.value)
