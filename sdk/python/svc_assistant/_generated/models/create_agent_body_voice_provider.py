from enum import StrEnum

class CreateAgentBodyVoiceProvider(StrEnum):
    AMAZON = "Amazon"
    ELEVENLABS = "ElevenLabs"
    GOOGLE = "Google"

    def __str__(self) -> str:
        return str(self.value)
