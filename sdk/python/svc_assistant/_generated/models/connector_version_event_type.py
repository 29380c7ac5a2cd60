from enum import StrEnum

class ConnectorVersionEventType(StrEnum):
    CONNECTOR_VERSION_PUBLISHED = "connector.version_published"

    def __str__(self) -> str:
        return str(self.value)
