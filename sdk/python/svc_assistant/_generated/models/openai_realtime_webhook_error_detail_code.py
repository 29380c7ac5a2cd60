from enum import StrEnum

class OpenaiRealtimeWebhookErrorDetailCode(StrEnum):
    WEBHOOK_SIGNATURE_INVALID = "webhook_signature_invalid"

    def __str__(self) -> str:
        return str(self.value)
