from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_tool_body_type_0_method import CreateToolBodyType0Method
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.create_tool_body_type_0_headers import CreateToolBodyType0Headers
  from ..models.create_tool_body_type_0_metadata import CreateToolBodyType0Metadata
  from ..models.create_tool_body_type_0_parameters import CreateToolBodyType0Parameters





T = TypeVar("T", bound="CreateToolBodyType0")



@_attrs_define
class CreateToolBodyType0:
    """ 
        Attributes:
            type_ (Literal['http']):
            name (str): The name the model calls the tool by; unique among your tools in this mode.
            description (str): What the tool does and when to use it, for the model.
            parameters (CreateToolBodyType0Parameters): The JSON Schema (draft 2020-12, or draft-07 by `$schema`) of the
                arguments: `type: "object"`. Its `pattern`s run on a linear-time engine (RE2: no backreferences or lookaround,
                refused with 400 naming the place); the model may only send arguments named in `properties`.
            url (str): HTTPS; the host must resolve to public addresses.
            method (CreateToolBodyType0Method | Unset):
            headers (CreateToolBodyType0Headers | Unset): Static headers sent with each request (an API key of yours);
                stored sealed, shown by name only.
            timeout_ms (int | Unset):
            speak_while_running (str | Unset): What a caller hears when the tool takes longer than about a second.
            confirm (bool | Unset): Phone calls: hold each call of it until the caller says yes (bookings, payments). The
                assistant is told to ask; a yes in the caller's next turn runs it, anything else drops it (marked in the
                transcript). Default false.
            metadata (CreateToolBodyType0Metadata | Unset):
     """

    type_: Literal['http']
    name: str
    description: str
    parameters: CreateToolBodyType0Parameters
    url: str
    method: CreateToolBodyType0Method | Unset = UNSET
    headers: CreateToolBodyType0Headers | Unset = UNSET
    timeout_ms: int | Unset = UNSET
    speak_while_running: str | Unset = UNSET
    confirm: bool | Unset = UNSET
    metadata: CreateToolBodyType0Metadata | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_tool_body_type_0_headers import CreateToolBodyType0Headers # noqa: PLC0415
        from ..models.create_tool_body_type_0_metadata import CreateToolBodyType0Metadata # noqa: PLC0415
        from ..models.create_tool_body_type_0_parameters import CreateToolBodyType0Parameters # noqa: PLC0415
        type_ = self.type_

        name = self.name

        description = self.description

        parameters = self.parameters.to_dict()

        url = self.url

        method: str | Unset = UNSET
        if not isinstance(self.method, Unset):
            method = self.method.value


        headers: dict[str, Any] | Unset = UNSET
        if not isinstance(self.headers, Unset):
            headers = self.headers.to_dict()

        timeout_ms = self.timeout_ms

        speak_while_running = self.speak_while_running

        confirm = self.confirm

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "name": name,
            "description": description,
            "parameters": parameters,
            "url": url,
        })
        if method is not UNSET:
            field_dict["method"] = method
        if headers is not UNSET:
            field_dict["headers"] = headers
        if timeout_ms is not UNSET:
            field_dict["timeout_ms"] = timeout_ms
        if speak_while_running is not UNSET:
            field_dict["speak_while_running"] = speak_while_running
        if confirm is not UNSET:
            field_dict["confirm"] = confirm
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_tool_body_type_0_headers import CreateToolBodyType0Headers # noqa: PLC0415
        from ..models.create_tool_body_type_0_metadata import CreateToolBodyType0Metadata # noqa: PLC0415
        from ..models.create_tool_body_type_0_parameters import CreateToolBodyType0Parameters # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['http'] , d.pop("type"))
        if type_ != 'http':
            raise ValueError(f"type must match const 'http', got '{type_}'")

        name = d.pop("name")

        description = d.pop("description")

        parameters = CreateToolBodyType0Parameters.from_dict(d.pop("parameters"))




        url = d.pop("url")

        _method = d.pop("method", UNSET)
        method: CreateToolBodyType0Method | Unset
        if isinstance(_method,  Unset):
            method = UNSET
        else:
            method = CreateToolBodyType0Method(_method)




        _headers = d.pop("headers", UNSET)
        headers: CreateToolBodyType0Headers | Unset
        if isinstance(_headers,  Unset):
            headers = UNSET
        else:
            headers = CreateToolBodyType0Headers.from_dict(_headers)




        timeout_ms = d.pop("timeout_ms", UNSET)

        speak_while_running = d.pop("speak_while_running", UNSET)

        confirm = d.pop("confirm", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: CreateToolBodyType0Metadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = CreateToolBodyType0Metadata.from_dict(_metadata)




        create_tool_body_type_0 = cls(
            type_=type_,
            name=name,
            description=description,
            parameters=parameters,
            url=url,
            method=method,
            headers=headers,
            timeout_ms=timeout_ms,
            speak_while_running=speak_while_running,
            confirm=confirm,
            metadata=metadata,
        )

        return create_tool_body_type_0

