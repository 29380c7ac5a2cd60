from enum import StrEnum

class ReadinessResponse200Mongodb(StrEnum):
    DOWN = "down"
    OK = "ok"

    def __str__(self) -> str:
        return str(self.value)
