from enum import StrEnum

class ConversationCostSource(StrEnum):
    TABLE = "table"
    TWILIO = "twilio"

    def __str__(self) -> str:
        return str(self.value)
