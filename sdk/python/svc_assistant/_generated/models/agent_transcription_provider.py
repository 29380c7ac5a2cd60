from enum import StrEnum

class AgentTranscriptionProvider(StrEnum):
    DEEPGRAM = "Deepgram"
    GOOGLE = "Google"

    def __str__(self) -> str:
        return str(self.value)
