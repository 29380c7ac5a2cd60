from enum import StrEnum

class CreateAgentBodyEngine(StrEnum):
    PIPELINE = "pipeline"
    REALTIME = "realtime"

    def __str__(self) -> str:
        return str(self.value)
