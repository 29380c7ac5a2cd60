
""" A client library for accessing Assistant telephony and messaging API """
from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
