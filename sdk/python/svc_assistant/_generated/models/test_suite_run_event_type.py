from enum import StrEnum

class TestSuiteRunEventType(StrEnum):
    TEST_SUITE_RUN_COMPLETED = "test_suite_run.completed"

    def __str__(self) -> str:
        return str(self.value)
