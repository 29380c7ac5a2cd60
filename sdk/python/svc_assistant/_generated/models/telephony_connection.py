from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.telephony_connection_mode import TelephonyConnectionMode
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="TelephonyConnection")



@_attrs_define
class TelephonyConnection:
    """ The Twilio account the organization's live calls and messages run in: its subaccount of the platform's account, or
    its own connected account.

        Attributes:
            object_ (Literal['telephony_connection']):
            mode (TelephonyConnectionMode): `subaccount`: the platform's subaccount of the organization; `connected`: its
                own Twilio account.
            account_sid (None | str): The account in use (`AC…`); null while the subaccount is not created yet (it is on
                first live use).
            created (int | None): When that account was created or connected; null likewise.
     """

    object_: Literal['telephony_connection']
    mode: TelephonyConnectionMode
    account_sid: None | str
    created: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        mode = self.mode.value

        account_sid: None | str
        account_sid = self.account_sid

        created: int | None
        created = self.created


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "mode": mode,
            "account_sid": account_sid,
            "created": created,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        object_ = cast(Literal['telephony_connection'] , d.pop("object"))
        if object_ != 'telephony_connection':
            raise ValueError(f"object must match const 'telephony_connection', got '{object_}'")

        mode = TelephonyConnectionMode(d.pop("mode"))




        def _parse_account_sid(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        account_sid = _parse_account_sid(d.pop("account_sid"))


        def _parse_created(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        created = _parse_created(d.pop("created"))


        telephony_connection = cls(
            object_=object_,
            mode=mode,
            account_sid=account_sid,
            created=created,
        )


        telephony_connection.additional_properties = d
        return telephony_connection

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
