from enum import StrEnum

class DoNotCallEntrySource(StrEnum):
    API = "api"
    CONTACT = "contact"
    CSV = "csv"
    OPT_OUT = "opt_out"

    def __str__(self) -> str:
        return str(self.value)
