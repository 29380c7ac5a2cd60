from enum import StrEnum

class TelephonyConnectionMode(StrEnum):
    CONNECTED = "connected"
    SUBACCOUNT = "subaccount"

    def __str__(self) -> str:
        return str(self.value)
