from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.simulate_inbound_message_body_channel import SimulateInboundMessageBodyChannel
from ..types import UNSET, Unset






T = TypeVar("T", bound="SimulateInboundMessageBody")



@_attrs_define
class SimulateInboundMessageBody:
    """ 
        Attributes:
            channel (SimulateInboundMessageBodyChannel):
            from_ (str): A valid phone number in E.164 format.
            text (str):
            to (str | Unset): A valid phone number in E.164 format.
            received_at (int | Unset):
     """

    channel: SimulateInboundMessageBodyChannel
    from_: str
    text: str
    to: str | Unset = UNSET
    received_at: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        channel = self.channel.value

        from_ = self.from_

        text = self.text

        to = self.to

        received_at = self.received_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "channel": channel,
            "from": from_,
            "text": text,
        })
        if to is not UNSET:
            field_dict["to"] = to
        if received_at is not UNSET:
            field_dict["received_at"] = received_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        channel = SimulateInboundMessageBodyChannel(d.pop("channel"))




        from_ = d.pop("from")

        text = d.pop("text")

        to = d.pop("to", UNSET)

        received_at = d.pop("received_at", UNSET)

        simulate_inbound_message_body = cls(
            channel=channel,
            from_=from_,
            text=text,
            to=to,
            received_at=received_at,
        )

        return simulate_inbound_message_body

