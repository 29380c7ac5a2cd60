from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="MessageTemplate")



@_attrs_define
class MessageTemplate:
    """ An approved WhatsApp template, to message a customer outside the 24-hour window.

        Attributes:
            id (str):
            object_ (Literal['message_template']):
            livemode (bool):
            name (str):
            language (str):
            body (str):
            content_sid (None | str):
            created (int): Unix time in seconds.
     """

    id: str
    object_: Literal['message_template']
    livemode: bool
    name: str
    language: str
    body: str
    content_sid: None | str
    created: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        name = self.name

        language = self.language

        body = self.body

        content_sid: None | str
        content_sid = self.content_sid

        created = self.created


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "name": name,
            "language": language,
            "body": body,
            "content_sid": content_sid,
            "created": created,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['message_template'] , d.pop("object"))
        if object_ != 'message_template':
            raise ValueError(f"object must match const 'message_template', got '{object_}'")

        livemode = d.pop("livemode")

        name = d.pop("name")

        language = d.pop("language")

        body = d.pop("body")

        def _parse_content_sid(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        content_sid = _parse_content_sid(d.pop("content_sid"))


        created = d.pop("created")

        message_template = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            name=name,
            language=language,
            body=body,
            content_sid=content_sid,
            created=created,
        )


        message_template.additional_properties = d
        return message_template

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
