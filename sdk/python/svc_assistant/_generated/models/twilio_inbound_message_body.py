from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="TwilioInboundMessageBody")



@_attrs_define
class TwilioInboundMessageBody:
    """ 
        Attributes:
            message_sid (str | Unset): SM… or MM…
            from_ (str | Unset): The customer, E.164 (`whatsapp:` prefixed on WhatsApp).
            to (str | Unset): The service number, likewise.
            body (str | Unset): The text.
            num_media (str | Unset): How many media attachments.
     """

    message_sid: str | Unset = UNSET
    from_: str | Unset = UNSET
    to: str | Unset = UNSET
    body: str | Unset = UNSET
    num_media: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        message_sid = self.message_sid

        from_ = self.from_

        to = self.to

        body = self.body

        num_media = self.num_media


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if message_sid is not UNSET:
            field_dict["MessageSid"] = message_sid
        if from_ is not UNSET:
            field_dict["From"] = from_
        if to is not UNSET:
            field_dict["To"] = to
        if body is not UNSET:
            field_dict["Body"] = body
        if num_media is not UNSET:
            field_dict["NumMedia"] = num_media

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message_sid = d.pop("MessageSid", UNSET)

        from_ = d.pop("From", UNSET)

        to = d.pop("To", UNSET)

        body = d.pop("Body", UNSET)

        num_media = d.pop("NumMedia", UNSET)

        twilio_inbound_message_body = cls(
            message_sid=message_sid,
            from_=from_,
            to=to,
            body=body,
            num_media=num_media,
        )


        twilio_inbound_message_body.additional_properties = d
        return twilio_inbound_message_body

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
