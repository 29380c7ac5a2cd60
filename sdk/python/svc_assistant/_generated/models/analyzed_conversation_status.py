from enum import StrEnum

class AnalyzedConversationStatus(StrEnum):
    NEEDS_PERSON = "needs_person"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
