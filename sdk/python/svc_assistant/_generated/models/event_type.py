from enum import StrEnum

class EventType(StrEnum):
    BULK_CALL_COMPLETED = "bulk_call.completed"
    BULK_CALL_CONTACT_COMPLETED = "bulk_call.contact_completed"
    CALL_ANALYZED = "call.analyzed"
    CALL_ENDED = "call.ended"
    CALL_SCHEDULED = "call.scheduled"
    CALL_STARTED = "call.started"
    CALL_TRANSFERRED = "call.transferred"
    CALL_TRANSFER_FAILED = "call.transfer_failed"
    CONNECTOR_VERSION_PUBLISHED = "connector.version_published"
    CONVERSATION_ANALYZED = "conversation.analyzed"
    CONVERSATION_NEEDS_PERSON = "conversation.needs_person"
    MESSAGE_DELIVERED = "message.delivered"
    MESSAGE_FAILED = "message.failed"
    MESSAGE_RECEIVED = "message.received"
    MESSAGE_SENT = "message.sent"
    RECORDING_DELETED = "recording.deleted"
    RECORDING_READY = "recording.ready"
    WEBHOOK_ENDPOINT_DELIVERY_FAILED = "webhook_endpoint.delivery_failed"

    def __str__(self) -> str:
        return str(self.value)
