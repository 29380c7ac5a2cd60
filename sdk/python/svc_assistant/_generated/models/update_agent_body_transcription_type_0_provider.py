from enum import StrEnum

class UpdateAgentBodyTranscriptionType0Provider(StrEnum):
    DEEPGRAM = "Deepgram"
    GOOGLE = "Google"

    def __str__(self) -> str:
        return str(self.value)
