from enum import StrEnum

class AnalysisSuccessVerdict(StrEnum):
    FAIL = "fail"
    PASS = "pass"

    def __str__(self) -> str:
        return str(self.value)
