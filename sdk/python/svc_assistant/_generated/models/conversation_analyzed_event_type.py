from enum import StrEnum

class ConversationAnalyzedEventType(StrEnum):
    CONVERSATION_ANALYZED = "conversation.analyzed"

    def __str__(self) -> str:
        return str(self.value)
