from enum import StrEnum

class MessageAuthor(StrEnum):
    API = "api"
    ASSISTANT = "assistant"
    CUSTOMER = "customer"
    PERSON = "person"

    def __str__(self) -> str:
        return str(self.value)
