from enum import StrEnum

class AgentVersionConfigTranscriptionProvider(StrEnum):
    DEEPGRAM = "Deepgram"
    GOOGLE = "Google"

    def __str__(self) -> str:
        return str(self.value)
