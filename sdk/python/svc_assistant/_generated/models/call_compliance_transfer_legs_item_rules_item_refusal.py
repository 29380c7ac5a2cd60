from enum import StrEnum

class CallComplianceTransferLegsItemRulesItemRefusal(StrEnum):
    CLIENT_NOT_ALLOWED = "client_not_allowed"
    COUNTRY_NOT_ALLOWED = "country_not_allowed"
    INVALID_DESTINATION = "invalid_destination"
    NUMBER_TYPE_NOT_ALLOWED = "number_type_not_allowed"
    SIP_DOMAIN_NOT_LISTED = "sip_domain_not_listed"

    def __str__(self) -> str:
        return str(self.value)
