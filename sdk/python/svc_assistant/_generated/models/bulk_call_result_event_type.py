from enum import StrEnum

class BulkCallResultEventType(StrEnum):
    BULK_CALL_CONTACT_COMPLETED = "bulk_call.contact_completed"

    def __str__(self) -> str:
        return str(self.value)
