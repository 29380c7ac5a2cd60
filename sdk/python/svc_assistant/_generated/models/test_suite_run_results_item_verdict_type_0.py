from enum import StrEnum

class TestSuiteRunResultsItemVerdictType0(StrEnum):
    FAIL = "fail"
    PASS = "pass"

    def __str__(self) -> str:
        return str(self.value)
