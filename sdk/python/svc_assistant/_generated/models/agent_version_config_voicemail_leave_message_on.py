from enum import StrEnum

class AgentVersionConfigVoicemailLeaveMessageOn(StrEnum):
    EVERY_ATTEMPT = "every_attempt"
    LAST_ATTEMPT = "last_attempt"

    def __str__(self) -> str:
        return str(self.value)
