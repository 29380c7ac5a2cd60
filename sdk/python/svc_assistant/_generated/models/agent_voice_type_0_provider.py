from enum import StrEnum

class AgentVoiceType0Provider(StrEnum):
    AMAZON = "Amazon"
    ELEVENLABS = "ElevenLabs"
    GOOGLE = "Google"

    def __str__(self) -> str:
        return str(self.value)
