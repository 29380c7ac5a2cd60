from enum import StrEnum

class AgentVersionConfigRecordingConsentType0(StrEnum):
    ANNOUNCE = "announce"
    ASK = "ask"
    OFF = "off"

    def __str__(self) -> str:
        return str(self.value)
