from enum import StrEnum

class AnalysisCostSource(StrEnum):
    TABLE = "table"
    TWILIO = "twilio"

    def __str__(self) -> str:
        return str(self.value)
