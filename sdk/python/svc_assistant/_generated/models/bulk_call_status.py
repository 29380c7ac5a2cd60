from enum import StrEnum

class BulkCallStatus(StrEnum):
    CANCELED = "canceled"
    COMPLETED = "completed"
    PAUSED = "paused"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
