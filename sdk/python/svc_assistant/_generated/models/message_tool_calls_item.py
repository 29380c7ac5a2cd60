from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="MessageToolCallsItem")



@_attrs_define
class MessageToolCallsItem:
    """ 
        Attributes:
            name (str | Unset): Tool entries: the tool called.
            arguments (Any | Unset): Tool entries: the model's arguments.
            result (str | Unset): Tool entries: what the tool answered (the model saw it).
            error (str | Unset): Tool entries: why the call failed (the model was told).
            status (int | Unset): Tool entries: the HTTP status the tool's server answered.
            duration_ms (int | Unset): Tool entries: how long the call took, ms.
            tool_call_id (str | Unset): Tool entries: `tc_…`, the `Idempotency-Key` of its request.
     """

    name: str | Unset = UNSET
    arguments: Any | Unset = UNSET
    result: str | Unset = UNSET
    error: str | Unset = UNSET
    status: int | Unset = UNSET
    duration_ms: int | Unset = UNSET
    tool_call_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        arguments = self.arguments

        result = self.result

        error = self.error

        status = self.status

        duration_ms = self.duration_ms

        tool_call_id = self.tool_call_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if arguments is not UNSET:
            field_dict["arguments"] = arguments
        if result is not UNSET:
            field_dict["result"] = result
        if error is not UNSET:
            field_dict["error"] = error
        if status is not UNSET:
            field_dict["status"] = status
        if duration_ms is not UNSET:
            field_dict["duration_ms"] = duration_ms
        if tool_call_id is not UNSET:
            field_dict["tool_call_id"] = tool_call_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        arguments = d.pop("arguments", UNSET)

        result = d.pop("result", UNSET)

        error = d.pop("error", UNSET)

        status = d.pop("status", UNSET)

        duration_ms = d.pop("duration_ms", UNSET)

        tool_call_id = d.pop("tool_call_id", UNSET)

        message_tool_calls_item = cls(
            name=name,
            arguments=arguments,
            result=result,
            error=error,
            status=status,
            duration_ms=duration_ms,
            tool_call_id=tool_call_id,
        )


        message_tool_calls_item.additional_properties = d
        return message_tool_calls_item

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
