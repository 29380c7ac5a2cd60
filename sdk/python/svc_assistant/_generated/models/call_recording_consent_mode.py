from enum import StrEnum

class CallRecordingConsentMode(StrEnum):
    ANNOUNCE = "announce"
    ASK = "ask"
    NONE = "none"
    OFF = "off"

    def __str__(self) -> str:
        return str(self.value)
