from enum import StrEnum

class AgentVersionConfigInterruptibleType0(StrEnum):
    ANY = "any"
    NONE = "none"
    SPEECH = "speech"

    def __str__(self) -> str:
        return str(self.value)
