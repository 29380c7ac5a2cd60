from enum import StrEnum

class UpdateAgentBodyVoiceType0Provider(StrEnum):
    AMAZON = "Amazon"
    ELEVENLABS = "ElevenLabs"
    GOOGLE = "Google"

    def __str__(self) -> str:
        return str(self.value)
