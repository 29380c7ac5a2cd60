from enum import StrEnum

class CallComplianceRulesItemResult(StrEnum):
    CLEAR = "clear"
    CLOSED = "closed"
    LISTED = "listed"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
