from enum import StrEnum

class CallAnsweredByType0(StrEnum):
    HUMAN = "human"
    MACHINE = "machine"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return str(self.value)
