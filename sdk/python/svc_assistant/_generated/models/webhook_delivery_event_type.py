from enum import StrEnum

class WebhookDeliveryEventType(StrEnum):
    WEBHOOK_ENDPOINT_DELIVERY_FAILED = "webhook_endpoint.delivery_failed"

    def __str__(self) -> str:
        return str(self.value)
