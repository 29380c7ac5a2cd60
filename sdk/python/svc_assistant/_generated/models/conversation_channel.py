from enum import StrEnum

class ConversationChannel(StrEnum):
    SMS = "sms"
    WEB = "web"
    WHATSAPP = "whatsapp"

    def __str__(self) -> str:
        return str(self.value)
