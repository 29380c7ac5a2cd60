from enum import StrEnum

class AnalyzedConversationChannel(StrEnum):
    SMS = "sms"
    WEB = "web"
    WHATSAPP = "whatsapp"

    def __str__(self) -> str:
        return str(self.value)
