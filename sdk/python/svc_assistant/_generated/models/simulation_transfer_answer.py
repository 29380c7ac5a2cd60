from enum import StrEnum

class SimulationTransferAnswer(StrEnum):
    ANSWERED = "answered"
    BUSY = "busy"
    NO_ANSWER = "no_answer"

    def __str__(self) -> str:
        return str(self.value)
