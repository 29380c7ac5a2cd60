from enum import StrEnum

class MessageEventType(StrEnum):
    MESSAGE_DELIVERED = "message.delivered"
    MESSAGE_FAILED = "message.failed"
    MESSAGE_RECEIVED = "message.received"
    MESSAGE_SENT = "message.sent"

    def __str__(self) -> str:
        return str(self.value)
