from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.caller_id_status import CallerIdStatus
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="CallerId")



@_attrs_define
class CallerId:
    """ A number the organization may call from once verified through Twilio’s Outgoing Caller IDs flow.

        Attributes:
            id (str):
            object_ (Literal['caller_id']):
            livemode (bool):
            phone_number (str): E.164.
            friendly_name (None | str):
            status (CallerIdStatus): `pending` until the person answered Twilio’s verification call and entered
                `validation_code`; `verified`: live calls may use it as `from`.
            validation_code (None | str): The code to enter on Twilio’s verification call (show it to the person); null once
                verified.
            account_sid (None | str): The Twilio account the caller ID was verified in (`AC…`): your subaccount, or your
                connected own account; null in test mode.
            active (bool): Whether live calls may show it as `from` now: verified, in the Twilio account your telephony runs
                in. A caller ID verified in another account (before you connected or disconnected your own Twilio account) is
                inactive until that account lists it too: verify it again (`POST /v1/caller_ids`).
            created (int): Unix time in seconds.
     """

    id: str
    object_: Literal['caller_id']
    livemode: bool
    phone_number: str
    friendly_name: None | str
    status: CallerIdStatus
    validation_code: None | str
    account_sid: None | str
    active: bool
    created: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        phone_number = self.phone_number

        friendly_name: None | str
        friendly_name = self.friendly_name

        status = self.status.value

        validation_code: None | str
        validation_code = self.validation_code

        account_sid: None | str
        account_sid = self.account_sid

        active = self.active

        created = self.created


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "phone_number": phone_number,
            "friendly_name": friendly_name,
            "status": status,
            "validation_code": validation_code,
            "account_sid": account_sid,
            "active": active,
            "created": created,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['caller_id'] , d.pop("object"))
        if object_ != 'caller_id':
            raise ValueError(f"object must match const 'caller_id', got '{object_}'")

        livemode = d.pop("livemode")

        phone_number = d.pop("phone_number")

        def _parse_friendly_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        friendly_name = _parse_friendly_name(d.pop("friendly_name"))


        status = CallerIdStatus(d.pop("status"))




        def _parse_validation_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        validation_code = _parse_validation_code(d.pop("validation_code"))


        def _parse_account_sid(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        account_sid = _parse_account_sid(d.pop("account_sid"))


        active = d.pop("active")

        created = d.pop("created")

        caller_id = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            phone_number=phone_number,
            friendly_name=friendly_name,
            status=status,
            validation_code=validation_code,
            account_sid=account_sid,
            active=active,
            created=created,
        )


        caller_id.additional_properties = d
        return caller_id

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
