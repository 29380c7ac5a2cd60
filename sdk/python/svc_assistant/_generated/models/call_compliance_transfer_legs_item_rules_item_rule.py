from enum import StrEnum

class CallComplianceTransferLegsItemRulesItemRule(StrEnum):
    CALLING_HOURS = "calling_hours"
    DIALING_PERMISSIONS = "dialing_permissions"
    DO_NOT_CALL = "do_not_call"

    def __str__(self) -> str:
        return str(self.value)
