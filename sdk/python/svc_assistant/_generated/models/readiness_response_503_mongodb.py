from enum import StrEnum

class ReadinessResponse503Mongodb(StrEnum):
    DOWN = "down"
    OK = "ok"

    def __str__(self) -> str:
        return str(self.value)
