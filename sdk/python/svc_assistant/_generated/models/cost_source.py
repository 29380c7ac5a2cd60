from enum import StrEnum

class CostSource(StrEnum):
    TABLE = "table"
    TWILIO = "twilio"

    def __str__(self) -> str:
        return str(self.value)
