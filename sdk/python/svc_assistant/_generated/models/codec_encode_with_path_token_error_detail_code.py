from enum import StrEnum

class CodecEncodeWithPathTokenErrorDetailCode(StrEnum):
    CODEC_TOKEN_INVALID = "codec_token_invalid"
    RATE_LIMIT_EXCEEDED = "rate_limit_exceeded"

    def __str__(self) -> str:
        return str(self.value)
