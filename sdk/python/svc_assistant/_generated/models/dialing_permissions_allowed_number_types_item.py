from enum import StrEnum

class DialingPermissionsAllowedNumberTypesItem(StrEnum):
    NON_GEOGRAPHIC = "non_geographic"
    PERSONAL_NUMBER = "personal_number"
    PREMIUM_RATE = "premium_rate"
    SHARED_COST = "shared_cost"

    def __str__(self) -> str:
        return str(self.value)
