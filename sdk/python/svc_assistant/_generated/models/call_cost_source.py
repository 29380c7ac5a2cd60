from enum import StrEnum

class CallCostSource(StrEnum):
    TABLE = "table"
    TWILIO = "twilio"

    def __str__(self) -> str:
        return str(self.value)
