from enum import StrEnum

class CallRecordingConsentAnswerType0(StrEnum):
    NO = "no"
    UNCLEAR = "unclear"
    YES = "yes"

    def __str__(self) -> str:
        return str(self.value)
