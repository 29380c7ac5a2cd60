from enum import StrEnum

class ConversationEventType(StrEnum):
    CONVERSATION_NEEDS_PERSON = "conversation.needs_person"

    def __str__(self) -> str:
        return str(self.value)
