from enum import StrEnum

class AgentVersionConfigAnalysisSuccessEvaluationScale(StrEnum):
    NUMERIC_1_10 = "numeric_1_10"
    PASS_FAIL = "pass_fail"

    def __str__(self) -> str:
        return str(self.value)
