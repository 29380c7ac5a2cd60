from enum import StrEnum

class RecordingContentType(StrEnum):
    AUDIOMPEG = "audio/mpeg"
    AUDIOWAV = "audio/wav"

    def __str__(self) -> str:
        return str(self.value)
