from enum import StrEnum

class ListBulkCallResultsStatus(StrEnum):
    BUSY = "busy"
    CANCELED = "canceled"
    COMPLETED = "completed"
    DO_NOT_CALL = "do_not_call"
    FAILED = "failed"
    IN_PROGRESS = "in_progress"
    NO_ANSWER = "no_answer"
    PENDING = "pending"
    VOICEMAIL = "voicemail"
    WINDOW_EXPIRED = "window_expired"

    def __str__(self) -> str:
        return str(self.value)
