from enum import StrEnum

class CreateAgentBodyTurnTakingTurnDetectionType1Eagerness(StrEnum):
    AUTO = "auto"
    HIGH = "high"
    LOW = "low"
    MEDIUM = "medium"

    def __str__(self) -> str:
        return str(self.value)
