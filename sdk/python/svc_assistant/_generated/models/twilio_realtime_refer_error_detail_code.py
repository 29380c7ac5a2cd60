from enum import StrEnum

class TwilioRealtimeReferErrorDetailCode(StrEnum):
    PARAMETER_INVALID = "parameter_invalid"
    PARAMETER_MISSING = "parameter_missing"
    TWILIO_SIGNATURE_INVALID = "twilio_signature_invalid"

    def __str__(self) -> str:
        return str(self.value)
