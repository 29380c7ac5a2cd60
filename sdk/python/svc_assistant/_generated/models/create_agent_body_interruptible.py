from enum import StrEnum

class CreateAgentBodyInterruptible(StrEnum):
    ANY = "any"
    NONE = "none"
    SPEECH = "speech"

    def __str__(self) -> str:
        return str(self.value)
