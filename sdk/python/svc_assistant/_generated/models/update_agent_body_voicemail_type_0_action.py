from enum import StrEnum

class UpdateAgentBodyVoicemailType0Action(StrEnum):
    HANG_UP = "hang_up"
    LEAVE_MESSAGE = "leave_message"

    def __str__(self) -> str:
        return str(self.value)
