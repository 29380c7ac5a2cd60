from enum import StrEnum

class AnalyzedConversationCostSource(StrEnum):
    TABLE = "table"
    TWILIO = "twilio"

    def __str__(self) -> str:
        return str(self.value)
