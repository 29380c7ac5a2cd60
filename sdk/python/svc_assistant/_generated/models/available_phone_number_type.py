from enum import StrEnum

class AvailablePhoneNumberType(StrEnum):
    LOCAL = "local"
    MOBILE = "mobile"
    TOLL_FREE = "toll_free"

    def __str__(self) -> str:
        return str(self.value)
