from enum import StrEnum

class UpdateToolBodyType0Method(StrEnum):
    GET = "GET"
    POST = "POST"

    def __str__(self) -> str:
        return str(self.value)
