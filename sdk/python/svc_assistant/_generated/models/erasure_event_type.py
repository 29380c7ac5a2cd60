from enum import StrEnum

class ErasureEventType(StrEnum):
    ERASURE_COMPLETED = "erasure.completed"

    def __str__(self) -> str:
        return str(self.value)
