from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateAgentBodyTransferDestinationsItem")



@_attrs_define
class CreateAgentBodyTransferDestinationsItem:
    """ 
        Attributes:
            name (str): What the model names it by (unique within the agent).
            to (str): An E.164 number or a `sip:` URI on one of the account's `sip_domains`.
            description (None | str | Unset): When to transfer there (the model reads it).
            warm (bool | None | Unset): `true`: warm transfer; `false`: cold; absent or null: the agent's `transfer_mode`.
     """

    name: str
    to: str
    description: None | str | Unset = UNSET
    warm: bool | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        to = self.to

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        warm: bool | None | Unset
        if isinstance(self.warm, Unset):
            warm = UNSET
        else:
            warm = self.warm


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "to": to,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if warm is not UNSET:
            field_dict["warm"] = warm

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        to = d.pop("to")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        def _parse_warm(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        warm = _parse_warm(d.pop("warm", UNSET))


        create_agent_body_transfer_destinations_item = cls(
            name=name,
            to=to,
            description=description,
            warm=warm,
        )

        return create_agent_body_transfer_destinations_item

