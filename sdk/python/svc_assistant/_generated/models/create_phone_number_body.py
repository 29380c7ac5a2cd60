from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_phone_number_body_channels_item import CreatePhoneNumberBodyChannelsItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreatePhoneNumberBody")



@_attrs_define
class CreatePhoneNumberBody:
    """ 
        Attributes:
            number (str): A valid phone number in E.164 format.
            channels (list[CreatePhoneNumberBodyChannelsItem]):
            agent_id (str | Unset):
            inbound_webhook_url (None | str | Unset):
            inbound_webhook_timeout_ms (int | None | Unset):
            overflow_to (None | str | Unset):
     """

    number: str
    channels: list[CreatePhoneNumberBodyChannelsItem]
    agent_id: str | Unset = UNSET
    inbound_webhook_url: None | str | Unset = UNSET
    inbound_webhook_timeout_ms: int | None | Unset = UNSET
    overflow_to: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        number = self.number

        channels = []
        for channels_item_data in self.channels:
            channels_item = channels_item_data.value
            channels.append(channels_item)



        agent_id = self.agent_id

        inbound_webhook_url: None | str | Unset
        if isinstance(self.inbound_webhook_url, Unset):
            inbound_webhook_url = UNSET
        else:
            inbound_webhook_url = self.inbound_webhook_url

        inbound_webhook_timeout_ms: int | None | Unset
        if isinstance(self.inbound_webhook_timeout_ms, Unset):
            inbound_webhook_timeout_ms = UNSET
        else:
            inbound_webhook_timeout_ms = self.inbound_webhook_timeout_ms

        overflow_to: None | str | Unset
        if isinstance(self.overflow_to, Unset):
            overflow_to = UNSET
        else:
            overflow_to = self.overflow_to


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "number": number,
            "channels": channels,
        })
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if inbound_webhook_url is not UNSET:
            field_dict["inbound_webhook_url"] = inbound_webhook_url
        if inbound_webhook_timeout_ms is not UNSET:
            field_dict["inbound_webhook_timeout_ms"] = inbound_webhook_timeout_ms
        if overflow_to is not UNSET:
            field_dict["overflow_to"] = overflow_to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        number = d.pop("number")

        channels = []
        _channels = d.pop("channels")
        for channels_item_data in (_channels):
            channels_item = CreatePhoneNumberBodyChannelsItem(channels_item_data)



            channels.append(channels_item)


        agent_id = d.pop("agent_id", UNSET)

        def _parse_inbound_webhook_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        inbound_webhook_url = _parse_inbound_webhook_url(d.pop("inbound_webhook_url", UNSET))


        def _parse_inbound_webhook_timeout_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        inbound_webhook_timeout_ms = _parse_inbound_webhook_timeout_ms(d.pop("inbound_webhook_timeout_ms", UNSET))


        def _parse_overflow_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        overflow_to = _parse_overflow_to(d.pop("overflow_to", UNSET))


        create_phone_number_body = cls(
            number=number,
            channels=channels,
            agent_id=agent_id,
            inbound_webhook_url=inbound_webhook_url,
            inbound_webhook_timeout_ms=inbound_webhook_timeout_ms,
            overflow_to=overflow_to,
        )

        return create_phone_number_body

