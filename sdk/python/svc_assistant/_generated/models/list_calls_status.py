from enum import StrEnum

class ListCallsStatus(StrEnum):
    BUSY = "busy"
    CANCELED = "canceled"
    COMPLETED = "completed"
    FAILED = "failed"
    IN_PROGRESS = "in_progress"
    NO_ANSWER = "no_answer"
    QUEUED = "queued"
    RINGING = "ringing"
    SCHEDULED = "scheduled"
    TRANSFERRED = "transferred"

    def __str__(self) -> str:
        return str(self.value)
