from enum import StrEnum

class ListConversationsChannel(StrEnum):
    SMS = "sms"
    WEB = "web"
    WHATSAPP = "whatsapp"

    def __str__(self) -> str:
        return str(self.value)
