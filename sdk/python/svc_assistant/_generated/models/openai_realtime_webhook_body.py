from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.openai_realtime_webhook_body_data import OpenaiRealtimeWebhookBodyData





T = TypeVar("T", bound="OpenaiRealtimeWebhookBody")



@_attrs_define
class OpenaiRealtimeWebhookBody:
    """ 
        Attributes:
            id (str):
            type_ (str): `realtime.call.incoming` or `live.transport.incoming`; other types are ignored.
            data (OpenaiRealtimeWebhookBodyData):
     """

    id: str
    type_: str
    data: OpenaiRealtimeWebhookBodyData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.openai_realtime_webhook_body_data import OpenaiRealtimeWebhookBodyData # noqa: PLC0415
        id = self.id

        type_ = self.type_

        data = self.data.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "type": type_,
            "data": data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.openai_realtime_webhook_body_data import OpenaiRealtimeWebhookBodyData # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = d.pop("type")

        data = OpenaiRealtimeWebhookBodyData.from_dict(d.pop("data"))




        openai_realtime_webhook_body = cls(
            id=id,
            type_=type_,
            data=data,
        )


        openai_realtime_webhook_body.additional_properties = d
        return openai_realtime_webhook_body

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
