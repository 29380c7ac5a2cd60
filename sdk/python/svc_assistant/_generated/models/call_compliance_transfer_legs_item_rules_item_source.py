from enum import StrEnum

class CallComplianceTransferLegsItemRulesItemSource(StrEnum):
    CONTACT = "contact"
    NATIONAL_REGISTRY = "national_registry"
    ORGANIZATION = "organization"

    def __str__(self) -> str:
        return str(self.value)
