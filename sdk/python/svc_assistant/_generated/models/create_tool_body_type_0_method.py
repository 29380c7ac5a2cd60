from enum import StrEnum

class CreateToolBodyType0Method(StrEnum):
    GET = "GET"
    POST = "POST"

    def __str__(self) -> str:
        return str(self.value)
