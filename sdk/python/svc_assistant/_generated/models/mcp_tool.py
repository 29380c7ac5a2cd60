from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.mcp_tool_metadata import McpToolMetadata





T = TypeVar("T", bound="McpTool")



@_attrs_define
class McpTool:
    """ The tools of a Model Context Protocol server (`type: mcp`).

        Attributes:
            id (str):
            object_ (Literal['tool']):
            livemode (bool):
            name (str): The name the model calls it by (http), or the name of the server (mcp).
            header_names (list[str]): The names of the static headers sent with each request; their values are never shown.
            metadata (McpToolMetadata): Your key-value pairs (at most 50 keys).
            created (int): Unix time in seconds.
            type_ (Literal['mcp']):
            server_url (str):
            allowed_tools (list[str] | None): The server's tools offered to the model; null for all of them.
     """

    id: str
    object_: Literal['tool']
    livemode: bool
    name: str
    header_names: list[str]
    metadata: McpToolMetadata
    created: int
    type_: Literal['mcp']
    server_url: str
    allowed_tools: list[str] | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.mcp_tool_metadata import McpToolMetadata # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        name = self.name

        header_names = self.header_names



        metadata = self.metadata.to_dict()

        created = self.created

        type_ = self.type_

        server_url = self.server_url

        allowed_tools: list[str] | None
        if isinstance(self.allowed_tools, list):
            allowed_tools = self.allowed_tools


        else:
            allowed_tools = self.allowed_tools


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "name": name,
            "header_names": header_names,
            "metadata": metadata,
            "created": created,
            "type": type_,
            "server_url": server_url,
            "allowed_tools": allowed_tools,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.mcp_tool_metadata import McpToolMetadata # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['tool'] , d.pop("object"))
        if object_ != 'tool':
            raise ValueError(f"object must match const 'tool', got '{object_}'")

        livemode = d.pop("livemode")

        name = d.pop("name")

        header_names = cast(list[str], d.pop("header_names"))


        metadata = McpToolMetadata.from_dict(d.pop("metadata"))




        created = d.pop("created")

        type_ = cast(Literal['mcp'] , d.pop("type"))
        if type_ != 'mcp':
            raise ValueError(f"type must match const 'mcp', got '{type_}'")

        server_url = d.pop("server_url")

        def _parse_allowed_tools(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                allowed_tools_type_0 = cast(list[str], data)

                return allowed_tools_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        allowed_tools = _parse_allowed_tools(d.pop("allowed_tools"))


        mcp_tool = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            name=name,
            header_names=header_names,
            metadata=metadata,
            created=created,
            type_=type_,
            server_url=server_url,
            allowed_tools=allowed_tools,
        )


        mcp_tool.additional_properties = d
        return mcp_tool

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
