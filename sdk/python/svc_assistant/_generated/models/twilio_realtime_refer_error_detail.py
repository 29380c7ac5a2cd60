from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.twilio_realtime_refer_error_detail_code import TwilioRealtimeReferErrorDetailCode
from ..models.twilio_realtime_refer_error_detail_type import TwilioRealtimeReferErrorDetailType
from ..types import UNSET, Unset






T = TypeVar("T", bound="TwilioRealtimeReferErrorDetail")



@_attrs_define
class TwilioRealtimeReferErrorDetail:
    """ The `error` of a failed `twilioRealtimeRefer`.

        Attributes:
            type_ (TwilioRealtimeReferErrorDetailType):
            code (TwilioRealtimeReferErrorDetailCode):
            message (str):
            param (str | Unset):
            reason (str | Unset): `bundle_invalid` only: what is wrong with the bundle.
            twilio_code (int | Unset): When Twilio refused the request (a number purchase, a caller ID verification): its
                error code.
            twilio_message (str | Unset): When Twilio refused the request: Twilio's message.
            request_id (str | Unset):
     """

    type_: TwilioRealtimeReferErrorDetailType
    code: TwilioRealtimeReferErrorDetailCode
    message: str
    param: str | Unset = UNSET
    reason: str | Unset = UNSET
    twilio_code: int | Unset = UNSET
    twilio_message: str | Unset = UNSET
    request_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        code = self.code.value

        message = self.message

        param = self.param

        reason = self.reason

        twilio_code = self.twilio_code

        twilio_message = self.twilio_message

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "code": code,
            "message": message,
        })
        if param is not UNSET:
            field_dict["param"] = param
        if reason is not UNSET:
            field_dict["reason"] = reason
        if twilio_code is not UNSET:
            field_dict["twilio_code"] = twilio_code
        if twilio_message is not UNSET:
            field_dict["twilio_message"] = twilio_message
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = TwilioRealtimeReferErrorDetailType(d.pop("type"))




        code = TwilioRealtimeReferErrorDetailCode(d.pop("code"))




        message = d.pop("message")

        param = d.pop("param", UNSET)

        reason = d.pop("reason", UNSET)

        twilio_code = d.pop("twilio_code", UNSET)

        twilio_message = d.pop("twilio_message", UNSET)

        request_id = d.pop("request_id", UNSET)

        twilio_realtime_refer_error_detail = cls(
            type_=type_,
            code=code,
            message=message,
            param=param,
            reason=reason,
            twilio_code=twilio_code,
            twilio_message=twilio_message,
            request_id=request_id,
        )


        twilio_realtime_refer_error_detail.additional_properties = d
        return twilio_realtime_refer_error_detail

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
