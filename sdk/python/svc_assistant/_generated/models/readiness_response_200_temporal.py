from enum import StrEnum

class ReadinessResponse200Temporal(StrEnum):
    DOWN = "down"
    OK = "ok"

    def __str__(self) -> str:
        return str(self.value)
