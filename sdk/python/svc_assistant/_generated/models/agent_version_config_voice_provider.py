from enum import StrEnum

class AgentVersionConfigVoiceProvider(StrEnum):
    AMAZON = "Amazon"
    ELEVENLABS = "ElevenLabs"
    GOOGLE = "Google"

    def __str__(self) -> str:
        return str(self.value)
