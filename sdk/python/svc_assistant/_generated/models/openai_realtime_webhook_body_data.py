from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.openai_realtime_webhook_body_data_sip_headers_item import OpenaiRealtimeWebhookBodyDataSipHeadersItem





T = TypeVar("T", bound="OpenaiRealtimeWebhookBodyData")



@_attrs_define
class OpenaiRealtimeWebhookBodyData:
    """ 
        Attributes:
            call_id (str):
            sip_headers (list[OpenaiRealtimeWebhookBodyDataSipHeadersItem]):
     """

    call_id: str
    sip_headers: list[OpenaiRealtimeWebhookBodyDataSipHeadersItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.openai_realtime_webhook_body_data_sip_headers_item import OpenaiRealtimeWebhookBodyDataSipHeadersItem # noqa: PLC0415
        call_id = self.call_id

        sip_headers = []
        for sip_headers_item_data in self.sip_headers:
            sip_headers_item = sip_headers_item_data.to_dict()
            sip_headers.append(sip_headers_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "call_id": call_id,
            "sip_headers": sip_headers,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.openai_realtime_webhook_body_data_sip_headers_item import OpenaiRealtimeWebhookBodyDataSipHeadersItem # noqa: PLC0415
        d = dict(src_dict)
        call_id = d.pop("call_id")

        sip_headers = []
        _sip_headers = d.pop("sip_headers")
        for sip_headers_item_data in (_sip_headers):
            sip_headers_item = OpenaiRealtimeWebhookBodyDataSipHeadersItem.from_dict(sip_headers_item_data)



            sip_headers.append(sip_headers_item)


        openai_realtime_webhook_body_data = cls(
            call_id=call_id,
            sip_headers=sip_headers,
        )


        openai_realtime_webhook_body_data.additional_properties = d
        return openai_realtime_webhook_body_data

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
