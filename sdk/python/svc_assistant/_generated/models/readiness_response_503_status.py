from enum import StrEnum

class ReadinessResponse503Status(StrEnum):
    READY = "ready"
    UNAVAILABLE = "unavailable"

    def __str__(self) -> str:
        return str(self.value)
