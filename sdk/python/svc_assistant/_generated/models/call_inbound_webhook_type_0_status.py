from enum import StrEnum

class CallInboundWebhookType0Status(StrEnum):
    FAILED = "failed"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
