from enum import StrEnum

class TestSuiteRunComparisonChangedItemCurrent(StrEnum):
    ERRORED = "errored"
    FAILED = "failed"
    PASSED = "passed"
    PENDING = "pending"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
