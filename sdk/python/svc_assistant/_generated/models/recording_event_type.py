from enum import StrEnum

class RecordingEventType(StrEnum):
    RECORDING_DELETED = "recording.deleted"
    RECORDING_READY = "recording.ready"

    def __str__(self) -> str:
        return str(self.value)
