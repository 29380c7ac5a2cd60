from enum import StrEnum

class AgentTranscriptionType0Provider(StrEnum):
    DEEPGRAM = "Deepgram"
    GOOGLE = "Google"

    def __str__(self) -> str:
        return str(self.value)
