from enum import StrEnum

class CallerIdStatus(StrEnum):
    PENDING = "pending"
    VERIFIED = "verified"

    def __str__(self) -> str:
        return str(self.value)
