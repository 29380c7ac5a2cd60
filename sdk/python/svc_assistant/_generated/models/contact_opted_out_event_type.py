from enum import StrEnum

class ContactOptedOutEventType(StrEnum):
    CONTACT_OPTED_OUT = "contact.opted_out"

    def __str__(self) -> str:
        return str(self.value)
