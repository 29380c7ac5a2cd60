from enum import StrEnum

class OptOutSource(StrEnum):
    OPT_OUT_TOOL = "opt_out_tool"
    SMS_STOP = "sms_stop"
    WHATSAPP_STOP = "whatsapp_stop"

    def __str__(self) -> str:
        return str(self.value)
