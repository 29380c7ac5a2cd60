from enum import StrEnum

class AuditEventActorType(StrEnum):
    API_KEY = "api_key"
    SIGNED_LINK = "signed_link"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
