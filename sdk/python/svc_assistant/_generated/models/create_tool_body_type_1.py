from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.create_tool_body_type_1_headers import CreateToolBodyType1Headers
  from ..models.create_tool_body_type_1_metadata import CreateToolBodyType1Metadata





T = TypeVar("T", bound="CreateToolBodyType1")



@_attrs_define
class CreateToolBodyType1:
    """ 
        Attributes:
            type_ (Literal['mcp']):
            name (str): A name for the server; unique among your tools in this mode.
            server_url (str): The server's Streamable HTTP address: HTTPS, public addresses only.
            headers (CreateToolBodyType1Headers | Unset): Static headers sent with each request (an API key of yours);
                stored sealed, shown by name only.
            allowed_tools (list[str] | Unset): The server's tools offered to the model; all of them when omitted.
            metadata (CreateToolBodyType1Metadata | Unset):
     """

    type_: Literal['mcp']
    name: str
    server_url: str
    headers: CreateToolBodyType1Headers | Unset = UNSET
    allowed_tools: list[str] | Unset = UNSET
    metadata: CreateToolBodyType1Metadata | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_tool_body_type_1_headers import CreateToolBodyType1Headers # noqa: PLC0415
        from ..models.create_tool_body_type_1_metadata import CreateToolBodyType1Metadata # noqa: PLC0415
        type_ = self.type_

        name = self.name

        server_url = self.server_url

        headers: dict[str, Any] | Unset = UNSET
        if not isinstance(self.headers, Unset):
            headers = self.headers.to_dict()

        allowed_tools: list[str] | Unset = UNSET
        if not isinstance(self.allowed_tools, Unset):
            allowed_tools = self.allowed_tools



        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "name": name,
            "server_url": server_url,
        })
        if headers is not UNSET:
            field_dict["headers"] = headers
        if allowed_tools is not UNSET:
            field_dict["allowed_tools"] = allowed_tools
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_tool_body_type_1_headers import CreateToolBodyType1Headers # noqa: PLC0415
        from ..models.create_tool_body_type_1_metadata import CreateToolBodyType1Metadata # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['mcp'] , d.pop("type"))
        if type_ != 'mcp':
            raise ValueError(f"type must match const 'mcp', got '{type_}'")

        name = d.pop("name")

        server_url = d.pop("server_url")

        _headers = d.pop("headers", UNSET)
        headers: CreateToolBodyType1Headers | Unset
        if isinstance(_headers,  Unset):
            headers = UNSET
        else:
            headers = CreateToolBodyType1Headers.from_dict(_headers)




        allowed_tools = cast(list[str], d.pop("allowed_tools", UNSET))


        _metadata = d.pop("metadata", UNSET)
        metadata: CreateToolBodyType1Metadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = CreateToolBodyType1Metadata.from_dict(_metadata)




        create_tool_body_type_1 = cls(
            type_=type_,
            name=name,
            server_url=server_url,
            headers=headers,
            allowed_tools=allowed_tools,
            metadata=metadata,
        )

        return create_tool_body_type_1

