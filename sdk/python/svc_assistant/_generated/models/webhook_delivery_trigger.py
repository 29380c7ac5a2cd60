from enum import StrEnum

class WebhookDeliveryTrigger(StrEnum):
    AUTOMATIC = "automatic"
    REDELIVERY = "redelivery"

    def __str__(self) -> str:
        return str(self.value)
