from enum import StrEnum

class SimulationOutcome(StrEnum):
    ANSWERED = "answered"
    BUSY = "busy"
    FAILED = "failed"
    NO_ANSWER = "no_answer"
    VOICEMAIL = "voicemail"

    def __str__(self) -> str:
        return str(self.value)
