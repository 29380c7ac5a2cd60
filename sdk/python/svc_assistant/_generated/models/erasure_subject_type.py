from enum import StrEnum

class ErasureSubjectType(StrEnum):
    CONTACT = "contact"
    EXTERNAL_ID = "external_id"
    PHONE = "phone"

    def __str__(self) -> str:
        return str(self.value)
