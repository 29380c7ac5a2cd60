from enum import StrEnum

class SimulateInboundMessageBodyChannel(StrEnum):
    SMS = "sms"
    WHATSAPP = "whatsapp"

    def __str__(self) -> str:
        return str(self.value)
