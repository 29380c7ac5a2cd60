from enum import StrEnum

class ListConversationsStatus(StrEnum):
    NEEDS_PERSON = "needs_person"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
