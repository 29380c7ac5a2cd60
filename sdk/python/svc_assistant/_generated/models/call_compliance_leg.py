from enum import StrEnum

class CallComplianceLeg(StrEnum):
    CALL = "call"
    TRANSFER = "transfer"

    def __str__(self) -> str:
        return str(self.value)
