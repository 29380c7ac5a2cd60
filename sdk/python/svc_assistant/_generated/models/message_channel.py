from enum import StrEnum

class MessageChannel(StrEnum):
    SMS = "sms"
    WEB = "web"
    WHATSAPP = "whatsapp"

    def __str__(self) -> str:
        return str(self.value)
