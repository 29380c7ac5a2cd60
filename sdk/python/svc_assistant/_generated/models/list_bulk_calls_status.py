from enum import StrEnum

class ListBulkCallsStatus(StrEnum):
    CANCELED = "canceled"
    COMPLETED = "completed"
    PAUSED = "paused"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
