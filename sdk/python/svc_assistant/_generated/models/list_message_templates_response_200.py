from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.message_template import MessageTemplate





T = TypeVar("T", bound="ListMessageTemplatesResponse200")



@_attrs_define
class ListMessageTemplatesResponse200:
    """ 
        Attributes:
            object_ (Literal['list']):
            data (list[MessageTemplate]):
            has_more (bool):
            url (str):
     """

    object_: Literal['list']
    data: list[MessageTemplate]
    has_more: bool
    url: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.message_template import MessageTemplate # noqa: PLC0415
        object_ = self.object_

        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)



        has_more = self.has_more

        url = self.url


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "object": object_,
            "data": data,
            "has_more": has_more,
            "url": url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.message_template import MessageTemplate # noqa: PLC0415
        d = dict(src_dict)
        object_ = cast(Literal['list'] , d.pop("object"))
        if object_ != 'list':
            raise ValueError(f"object must match const 'list', got '{object_}'")

        data = []
        _data = d.pop("data")
        for data_item_data in (_data):
            data_item = MessageTemplate.from_dict(data_item_data)



            data.append(data_item)


        has_more = d.pop("has_more")

        url = d.pop("url")

        list_message_templates_response_200 = cls(
            object_=object_,
            data=data,
            has_more=has_more,
            url=url,
        )

        return list_message_templates_response_200

