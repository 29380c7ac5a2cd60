from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.record_data import RecordData





T = TypeVar("T", bound="Record")



@_attrs_define
class Record:
    """ Something the assistant knows about a contact (an order, an appointment), given to it on every call.

        Attributes:
            id (str):
            object_ (Literal['record']):
            livemode (bool):
            contact_id (str):
            type_ (None | str):
            title (None | str):
            text (str):
            data (RecordData):
            occurred_at (int | None):
            external_id (None | str):
            created (int): Unix time in seconds.
            updated (int): Unix time in seconds.
     """

    id: str
    object_: Literal['record']
    livemode: bool
    contact_id: str
    type_: None | str
    title: None | str
    text: str
    data: RecordData
    occurred_at: int | None
    external_id: None | str
    created: int
    updated: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.record_data import RecordData # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        contact_id = self.contact_id

        type_: None | str
        type_ = self.type_

        title: None | str
        title = self.title

        text = self.text

        data = self.data.to_dict()

        occurred_at: int | None
        occurred_at = self.occurred_at

        external_id: None | str
        external_id = self.external_id

        created = self.created

        updated = self.updated


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "contact_id": contact_id,
            "type": type_,
            "title": title,
            "text": text,
            "data": data,
            "occurred_at": occurred_at,
            "external_id": external_id,
            "created": created,
            "updated": updated,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.record_data import RecordData # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['record'] , d.pop("object"))
        if object_ != 'record':
            raise ValueError(f"object must match const 'record', got '{object_}'")

        livemode = d.pop("livemode")

        contact_id = d.pop("contact_id")

        def _parse_type_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        type_ = _parse_type_(d.pop("type"))


        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))


        text = d.pop("text")

        data = RecordData.from_dict(d.pop("data"))




        def _parse_occurred_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        occurred_at = _parse_occurred_at(d.pop("occurred_at"))


        def _parse_external_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        external_id = _parse_external_id(d.pop("external_id"))


        created = d.pop("created")

        updated = d.pop("updated")

        record = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            contact_id=contact_id,
            type_=type_,
            title=title,
            text=text,
            data=data,
            occurred_at=occurred_at,
            external_id=external_id,
            created=created,
            updated=updated,
        )


        record.additional_properties = d
        return record

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
