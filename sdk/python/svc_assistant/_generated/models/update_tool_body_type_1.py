from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_tool_body_type_1_headers_type_0 import UpdateToolBodyType1HeadersType0
  from ..models.update_tool_body_type_1_metadata import UpdateToolBodyType1Metadata





T = TypeVar("T", bound="UpdateToolBodyType1")



@_attrs_define
class UpdateToolBodyType1:
    """ 
        Attributes:
            name (str | Unset): A name for the server; unique among your tools in this mode.
            server_url (str | Unset): The server's Streamable HTTP address: HTTPS, public addresses only.
            headers (None | Unset | UpdateToolBodyType1HeadersType0):
            allowed_tools (list[str] | None | Unset):
            metadata (UpdateToolBodyType1Metadata | Unset):
     """

    name: str | Unset = UNSET
    server_url: str | Unset = UNSET
    headers: None | Unset | UpdateToolBodyType1HeadersType0 = UNSET
    allowed_tools: list[str] | None | Unset = UNSET
    metadata: UpdateToolBodyType1Metadata | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_tool_body_type_1_headers_type_0 import UpdateToolBodyType1HeadersType0 # noqa: PLC0415
        from ..models.update_tool_body_type_1_metadata import UpdateToolBodyType1Metadata # noqa: PLC0415
        name = self.name

        server_url = self.server_url

        headers: dict[str, Any] | None | Unset
        if isinstance(self.headers, Unset):
            headers = UNSET
        elif isinstance(self.headers, UpdateToolBodyType1HeadersType0):
            headers = self.headers.to_dict()
        else:
            headers = self.headers

        allowed_tools: list[str] | None | Unset
        if isinstance(self.allowed_tools, Unset):
            allowed_tools = UNSET
        elif isinstance(self.allowed_tools, list):
            allowed_tools = self.allowed_tools


        else:
            allowed_tools = self.allowed_tools

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if server_url is not UNSET:
            field_dict["server_url"] = server_url
        if headers is not UNSET:
            field_dict["headers"] = headers
        if allowed_tools is not UNSET:
            field_dict["allowed_tools"] = allowed_tools
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_tool_body_type_1_headers_type_0 import UpdateToolBodyType1HeadersType0 # noqa: PLC0415
        from ..models.update_tool_body_type_1_metadata import UpdateToolBodyType1Metadata # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        server_url = d.pop("server_url", UNSET)

        def _parse_headers(data: object) -> None | Unset | UpdateToolBodyType1HeadersType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                headers_type_0 = UpdateToolBodyType1HeadersType0.from_dict(data)



                return headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateToolBodyType1HeadersType0, data)

        headers = _parse_headers(d.pop("headers", UNSET))


        def _parse_allowed_tools(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                allowed_tools_type_0 = cast(list[str], data)

                return allowed_tools_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        allowed_tools = _parse_allowed_tools(d.pop("allowed_tools", UNSET))


        _metadata = d.pop("metadata", UNSET)
        metadata: UpdateToolBodyType1Metadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = UpdateToolBodyType1Metadata.from_dict(_metadata)




        update_tool_body_type_1 = cls(
            name=name,
            server_url=server_url,
            headers=headers,
            allowed_tools=allowed_tools,
            metadata=metadata,
        )

        return update_tool_body_type_1

