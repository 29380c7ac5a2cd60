from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="TransferDestination")



@_attrs_define
class TransferDestination:
    """ A place the assistant may transfer a caller to: the model's `transfer_call` names it, never a number.

        Attributes:
            name (str): What the model names it by: lower-case letters, digits, `_` and `-`, 1-40; unique within the agent.
            to (str): An E.164 number or a `sip:` URI on one of the account's `sip_domains`.
            description (None | str): When to transfer there, as the model is told.
            warm (bool | None): `true`: a warm transfer (briefed first); `false`: cold; null: the agent's `transfer_mode`.
     """

    name: str
    to: str
    description: None | str
    warm: bool | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        to = self.to

        description: None | str
        description = self.description

        warm: bool | None
        warm = self.warm


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "to": to,
            "description": description,
            "warm": warm,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        to = d.pop("to")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))


        def _parse_warm(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        warm = _parse_warm(d.pop("warm"))


        transfer_destination = cls(
            name=name,
            to=to,
            description=description,
            warm=warm,
        )


        transfer_destination.additional_properties = d
        return transfer_destination

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
