from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.sip_trunk import SipTrunk





T = TypeVar("T", bound="SipTrunkList")



@_attrs_define
class SipTrunkList:
    """ A page of `SipTrunk` objects.

        Attributes:
            object_ (Literal['list']):
            data (list[SipTrunk]):
            has_more (bool): True when more objects follow this page.
            url (str): The path of this list, e.g. `/v1/calls`.
     """

    object_: Literal['list']
    data: list[SipTrunk]
    has_more: bool
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.sip_trunk import SipTrunk # noqa: PLC0415
        object_ = self.object_

        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)



        has_more = self.has_more

        url = self.url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "data": data,
            "has_more": has_more,
            "url": url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sip_trunk import SipTrunk # noqa: PLC0415
        d = dict(src_dict)
        object_ = cast(Literal['list'] , d.pop("object"))
        if object_ != 'list':
            raise ValueError(f"object must match const 'list', got '{object_}'")

        data = []
        _data = d.pop("data")
        for data_item_data in (_data):
            data_item = SipTrunk.from_dict(data_item_data)



            data.append(data_item)


        has_more = d.pop("has_more")

        url = d.pop("url")

        sip_trunk_list = cls(
            object_=object_,
            data=data,
            has_more=has_more,
            url=url,
        )


        sip_trunk_list.additional_properties = d
        return sip_trunk_list

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
