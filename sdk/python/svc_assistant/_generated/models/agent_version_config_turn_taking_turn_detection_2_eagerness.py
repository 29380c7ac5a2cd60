from enum import StrEnum

class AgentVersionConfigTurnTakingTurnDetection2Eagerness(StrEnum):
    AUTO = "auto"
    HIGH = "high"
    LOW = "low"
    MEDIUM = "medium"

    def __str__(self) -> str:
        return str(self.value)
