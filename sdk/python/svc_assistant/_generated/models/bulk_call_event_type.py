from enum import StrEnum

class BulkCallEventType(StrEnum):
    BULK_CALL_COMPLETED = "bulk_call.completed"

    def __str__(self) -> str:
        return str(self.value)
