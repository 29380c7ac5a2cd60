from enum import StrEnum

class CallComplianceRulesItemResult(StrEnum):
    ALLOWED = "allowed"
    CLEAR = "clear"
    CLOSED = "closed"
    LISTED = "listed"
    NOT_ALLOWED = "not_allowed"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
