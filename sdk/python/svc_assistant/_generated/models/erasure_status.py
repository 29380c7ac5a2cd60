from enum import StrEnum

class ErasureStatus(StrEnum):
    COMPLETED = "completed"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
