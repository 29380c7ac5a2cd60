from enum import StrEnum

class PhoneNumberSource(StrEnum):
    BOUGHT = "bought"
    CONNECTED = "connected"
    IMPORTED = "imported"
    SIMULATED = "simulated"

    def __str__(self) -> str:
        return str(self.value)
