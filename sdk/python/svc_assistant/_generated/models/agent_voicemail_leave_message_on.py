from enum import StrEnum

class AgentVoicemailLeaveMessageOn(StrEnum):
    EVERY_ATTEMPT = "every_attempt"
    LAST_ATTEMPT = "last_attempt"

    def __str__(self) -> str:
        return str(self.value)
