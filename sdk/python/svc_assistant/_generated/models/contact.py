from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.opt_out import OptOut





T = TypeVar("T", bound="Contact")



@_attrs_define
class Contact:
    """ Someone the assistant talks to; calls and conversations with their number are theirs.

        Attributes:
            id (str):
            object_ (Literal['contact']):
            livemode (bool):
            phone (None | str):
            name (None | str):
            external_id (None | str):
            do_not_call (bool):
            opt_outs (list[OptOut]): The person's own opt-outs in force (asked on a call, or a STOP word), one per channel
                at most.
            created (int): Unix time in seconds.
            updated (int): Unix time in seconds.
     """

    id: str
    object_: Literal['contact']
    livemode: bool
    phone: None | str
    name: None | str
    external_id: None | str
    do_not_call: bool
    opt_outs: list[OptOut]
    created: int
    updated: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.opt_out import OptOut # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        phone: None | str
        phone = self.phone

        name: None | str
        name = self.name

        external_id: None | str
        external_id = self.external_id

        do_not_call = self.do_not_call

        opt_outs = []
        for opt_outs_item_data in self.opt_outs:
            opt_outs_item = opt_outs_item_data.to_dict()
            opt_outs.append(opt_outs_item)



        created = self.created

        updated = self.updated


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "phone": phone,
            "name": name,
            "external_id": external_id,
            "do_not_call": do_not_call,
            "opt_outs": opt_outs,
            "created": created,
            "updated": updated,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.opt_out import OptOut # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['contact'] , d.pop("object"))
        if object_ != 'contact':
            raise ValueError(f"object must match const 'contact', got '{object_}'")

        livemode = d.pop("livemode")

        def _parse_phone(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        phone = _parse_phone(d.pop("phone"))


        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        def _parse_external_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        external_id = _parse_external_id(d.pop("external_id"))


        do_not_call = d.pop("do_not_call")

        opt_outs = []
        _opt_outs = d.pop("opt_outs")
        for opt_outs_item_data in (_opt_outs):
            opt_outs_item = OptOut.from_dict(opt_outs_item_data)



            opt_outs.append(opt_outs_item)


        created = d.pop("created")

        updated = d.pop("updated")

        contact = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            phone=phone,
            name=name,
            external_id=external_id,
            do_not_call=do_not_call,
            opt_outs=opt_outs,
            created=created,
            updated=updated,
        )


        contact.additional_properties = d
        return contact

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
