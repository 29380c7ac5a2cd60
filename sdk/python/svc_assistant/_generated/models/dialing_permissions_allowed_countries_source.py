from enum import StrEnum

class DialingPermissionsAllowedCountriesSource(StrEnum):
    ACCOUNT = "account"
    OPERATOR_DEFAULT = "operator_default"
    PHONE_NUMBERS = "phone_numbers"
    TEST_MODE = "test_mode"

    def __str__(self) -> str:
        return str(self.value)
