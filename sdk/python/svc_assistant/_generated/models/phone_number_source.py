from enum import StrEnum

class PhoneNumberSource(StrEnum):
    BOUGHT = "bought"
    CONNECTED = "connected"
    IMPORTED = "imported"
    SIMULATED = "simulated"
    SIP_TRUNK = "sip_trunk"

    def __str__(self) -> str:
        return str(self.value)
