from enum import StrEnum

class AgentVersionConfigTurnTakingInterruptible(StrEnum):
    ANY = "any"
    DTMF = "dtmf"
    NONE = "none"
    SPEECH = "speech"

    def __str__(self) -> str:
        return str(self.value)
