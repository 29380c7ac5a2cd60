from enum import StrEnum

class AnalysisSuccessType0Verdict(StrEnum):
    FAIL = "fail"
    PASS = "pass"

    def __str__(self) -> str:
        return str(self.value)
