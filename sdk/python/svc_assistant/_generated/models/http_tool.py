from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.http_tool_method import HttpToolMethod
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.http_tool_metadata import HttpToolMetadata
  from ..models.http_tool_parameters import HttpToolParameters





T = TypeVar("T", bound="HttpTool")



@_attrs_define
class HttpTool:
    """ A tool that calls an HTTPS endpoint of yours (`type: http`).

        Attributes:
            id (str):
            object_ (Literal['tool']):
            livemode (bool):
            name (str): The name the model calls it by (http), or the name of the server (mcp).
            header_names (list[str]): The names of the static headers sent with each request; their values are never shown.
            metadata (HttpToolMetadata): Your key-value pairs (at most 50 keys).
            created (int): Unix time in seconds.
            type_ (Literal['http']):
            description (str):
            parameters (HttpToolParameters): The JSON Schema of the arguments (an object schema).
            url (str):
            method (HttpToolMethod):
            timeout_ms (int):
            speak_while_running (None | str):
            confirm (bool): On phone calls, a call of it runs only after the caller's spoken yes in their next turn
                (bookings, payments).
            secret (str | Unset): Signs each request (`Svc-Signature`, as webhooks are signed). Only in the answer of the
                creation.
     """

    id: str
    object_: Literal['tool']
    livemode: bool
    name: str
    header_names: list[str]
    metadata: HttpToolMetadata
    created: int
    type_: Literal['http']
    description: str
    parameters: HttpToolParameters
    url: str
    method: HttpToolMethod
    timeout_ms: int
    speak_while_running: None | str
    confirm: bool
    secret: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.http_tool_metadata import HttpToolMetadata # noqa: PLC0415
        from ..models.http_tool_parameters import HttpToolParameters # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        name = self.name

        header_names = self.header_names



        metadata = self.metadata.to_dict()

        created = self.created

        type_ = self.type_

        description = self.description

        parameters = self.parameters.to_dict()

        url = self.url

        method = self.method.value

        timeout_ms = self.timeout_ms

        speak_while_running: None | str
        speak_while_running = self.speak_while_running

        confirm = self.confirm

        secret = self.secret


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
            "description": description,
            "parameters": parameters,
            "url": url,
            "method": method,
            "timeout_ms": timeout_ms,
            "speak_while_running": speak_while_running,
            "confirm": confirm,
        })
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.http_tool_metadata import HttpToolMetadata # noqa: PLC0415
        from ..models.http_tool_parameters import HttpToolParameters # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['tool'] , d.pop("object"))
        if object_ != 'tool':
            raise ValueError(f"object must match const 'tool', got '{object_}'")

        livemode = d.pop("livemode")

        name = d.pop("name")

        header_names = cast(list[str], d.pop("header_names"))


        metadata = HttpToolMetadata.from_dict(d.pop("metadata"))




        created = d.pop("created")

        type_ = cast(Literal['http'] , d.pop("type"))
        if type_ != 'http':
            raise ValueError(f"type must match const 'http', got '{type_}'")

        description = d.pop("description")

        parameters = HttpToolParameters.from_dict(d.pop("parameters"))




        url = d.pop("url")

        method = HttpToolMethod(d.pop("method"))




        timeout_ms = d.pop("timeout_ms")

        def _parse_speak_while_running(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        speak_while_running = _parse_speak_while_running(d.pop("speak_while_running"))


        confirm = d.pop("confirm")

        secret = d.pop("secret", UNSET)

        http_tool = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            name=name,
            header_names=header_names,
            metadata=metadata,
            created=created,
            type_=type_,
            description=description,
            parameters=parameters,
            url=url,
            method=method,
            timeout_ms=timeout_ms,
            speak_while_running=speak_while_running,
            confirm=confirm,
            secret=secret,
        )


        http_tool.additional_properties = d
        return http_tool

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
