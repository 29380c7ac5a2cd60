from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.tool_type_0 import ToolType0
  from ..models.tool_type_1 import ToolType1





T = TypeVar("T", bound="ListToolsResponse200")



@_attrs_define
class ListToolsResponse200:
    """ 
        Attributes:
            object_ (Literal['list']):
            data (list[ToolType0 | ToolType1]):
            has_more (bool):
            url (str):
     """

    object_: Literal['list']
    data: list[ToolType0 | ToolType1]
    has_more: bool
    url: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.tool_type_0 import ToolType0 # noqa: PLC0415
        from ..models.tool_type_1 import ToolType1 # noqa: PLC0415
        object_ = self.object_

        data = []
        for data_item_data in self.data:
            data_item: dict[str, Any]
            if isinstance(data_item_data, ToolType0):
                data_item = data_item_data.to_dict()
            else:
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
        from ..models.tool_type_0 import ToolType0 # noqa: PLC0415
        from ..models.tool_type_1 import ToolType1 # noqa: PLC0415
        d = dict(src_dict)
        object_ = cast(Literal['list'] , d.pop("object"))
        if object_ != 'list':
            raise ValueError(f"object must match const 'list', got '{object_}'")

        data = []
        _data = d.pop("data")
        for data_item_data in (_data):
            def _parse_data_item(data: object) -> ToolType0 | ToolType1:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_tool_type_0 = ToolType0.from_dict(data)



                    return componentsschemas_tool_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_type_1 = ToolType1.from_dict(data)



                return componentsschemas_tool_type_1

            data_item = _parse_data_item(data_item_data)

            data.append(data_item)


        has_more = d.pop("has_more")

        url = d.pop("url")

        list_tools_response_200 = cls(
            object_=object_,
            data=data,
            has_more=has_more,
            url=url,
        )

        return list_tools_response_200

