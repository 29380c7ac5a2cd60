from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ConnectTelephonyAccountBody")



@_attrs_define
class ConnectTelephonyAccountBody:
    """ 
        Attributes:
            account_sid (str):
            api_key_sid (str):
            api_key_secret (str):
            auth_token (str): The account's auth token: only to verify the X-Twilio-Signature of its webhooks; never
                returned.
     """

    account_sid: str
    api_key_sid: str
    api_key_secret: str
    auth_token: str





    def to_dict(self) -> dict[str, Any]:
        account_sid = self.account_sid

        api_key_sid = self.api_key_sid

        api_key_secret = self.api_key_secret

        auth_token = self.auth_token


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "account_sid": account_sid,
            "api_key_sid": api_key_sid,
            "api_key_secret": api_key_secret,
            "auth_token": auth_token,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        account_sid = d.pop("account_sid")

        api_key_sid = d.pop("api_key_sid")

        api_key_secret = d.pop("api_key_secret")

        auth_token = d.pop("auth_token")

        connect_telephony_account_body = cls(
            account_sid=account_sid,
            api_key_sid=api_key_sid,
            api_key_secret=api_key_secret,
            auth_token=auth_token,
        )

        return connect_telephony_account_body

