from enum import StrEnum

class FormFieldsItemType(StrEnum):
    BOOLEAN = "boolean"
    DATE = "date"
    ENUM = "enum"
    NUMBER = "number"
    STRING = "string"

    def __str__(self) -> str:
        return str(self.value)
