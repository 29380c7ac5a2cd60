from enum import StrEnum

class RecordingAudioErrorDetailCode(StrEnum):
    RECORDING_LINK_INVALID = "recording_link_invalid"
    SERVICE_UNAVAILABLE = "service_unavailable"

    def __str__(self) -> str:
        return str(self.value)
