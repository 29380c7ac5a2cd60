from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_tool_body_type_0_method import UpdateToolBodyType0Method
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_tool_body_type_0_headers_type_0 import UpdateToolBodyType0HeadersType0
  from ..models.update_tool_body_type_0_metadata import UpdateToolBodyType0Metadata
  from ..models.update_tool_body_type_0_parameters import UpdateToolBodyType0Parameters





T = TypeVar("T", bound="UpdateToolBodyType0")



@_attrs_define
class UpdateToolBodyType0:
    """ 
        Attributes:
            name (str | Unset): The name the model calls the tool by; unique among your tools in this mode.
            description (str | Unset): What the tool does and when to use it, for the model.
            parameters (UpdateToolBodyType0Parameters | Unset): The JSON Schema (draft 2020-12, or draft-07 by `$schema`) of
                the arguments: `type: "object"`. Its `pattern`s run on a linear-time engine (RE2: no backreferences or
                lookaround, refused with 400 naming the place); the model may only send arguments named in `properties`.
            url (str | Unset): HTTPS; the host must resolve to public addresses.
            method (UpdateToolBodyType0Method | Unset):
            headers (None | Unset | UpdateToolBodyType0HeadersType0):
            timeout_ms (int | Unset):
            speak_while_running (None | str | Unset):
            confirm (bool | Unset): Phone calls: hold each call of it until the caller says yes (bookings, payments). The
                assistant is told to ask; a yes in the caller's next turn runs it, anything else drops it (marked in the
                transcript). Default false.
            metadata (UpdateToolBodyType0Metadata | Unset):
     """

    name: str | Unset = UNSET
    description: str | Unset = UNSET
    parameters: UpdateToolBodyType0Parameters | Unset = UNSET
    url: str | Unset = UNSET
    method: UpdateToolBodyType0Method | Unset = UNSET
    headers: None | Unset | UpdateToolBodyType0HeadersType0 = UNSET
    timeout_ms: int | Unset = UNSET
    speak_while_running: None | str | Unset = UNSET
    confirm: bool | Unset = UNSET
    metadata: UpdateToolBodyType0Metadata | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_tool_body_type_0_headers_type_0 import UpdateToolBodyType0HeadersType0 # noqa: PLC0415
        from ..models.update_tool_body_type_0_metadata import UpdateToolBodyType0Metadata # noqa: PLC0415
        from ..models.update_tool_body_type_0_parameters import UpdateToolBodyType0Parameters # noqa: PLC0415
        name = self.name

        description = self.description

        parameters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.parameters, Unset):
            parameters = self.parameters.to_dict()

        url = self.url

        method: str | Unset = UNSET
        if not isinstance(self.method, Unset):
            method = self.method.value


        headers: dict[str, Any] | None | Unset
        if isinstance(self.headers, Unset):
            headers = UNSET
        elif isinstance(self.headers, UpdateToolBodyType0HeadersType0):
            headers = self.headers.to_dict()
        else:
            headers = self.headers

        timeout_ms = self.timeout_ms

        speak_while_running: None | str | Unset
        if isinstance(self.speak_while_running, Unset):
            speak_while_running = UNSET
        else:
            speak_while_running = self.speak_while_running

        confirm = self.confirm

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if description is not UNSET:
            field_dict["description"] = description
        if parameters is not UNSET:
            field_dict["parameters"] = parameters
        if url is not UNSET:
            field_dict["url"] = url
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
        from ..models.update_tool_body_type_0_headers_type_0 import UpdateToolBodyType0HeadersType0 # noqa: PLC0415
        from ..models.update_tool_body_type_0_metadata import UpdateToolBodyType0Metadata # noqa: PLC0415
        from ..models.update_tool_body_type_0_parameters import UpdateToolBodyType0Parameters # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        description = d.pop("description", UNSET)

        _parameters = d.pop("parameters", UNSET)
        parameters: UpdateToolBodyType0Parameters | Unset
        if isinstance(_parameters,  Unset):
            parameters = UNSET
        else:
            parameters = UpdateToolBodyType0Parameters.from_dict(_parameters)




        url = d.pop("url", UNSET)

        _method = d.pop("method", UNSET)
        method: UpdateToolBodyType0Method | Unset
        if isinstance(_method,  Unset):
            method = UNSET
        else:
            method = UpdateToolBodyType0Method(_method)




        def _parse_headers(data: object) -> None | Unset | UpdateToolBodyType0HeadersType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                headers_type_0 = UpdateToolBodyType0HeadersType0.from_dict(data)



                return headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateToolBodyType0HeadersType0, data)

        headers = _parse_headers(d.pop("headers", UNSET))


        timeout_ms = d.pop("timeout_ms", UNSET)

        def _parse_speak_while_running(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        speak_while_running = _parse_speak_while_running(d.pop("speak_while_running", UNSET))


        confirm = d.pop("confirm", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: UpdateToolBodyType0Metadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = UpdateToolBodyType0Metadata.from_dict(_metadata)




        update_tool_body_type_0 = cls(
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

        return update_tool_body_type_0

