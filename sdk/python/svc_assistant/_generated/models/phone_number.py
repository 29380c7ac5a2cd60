from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.phone_number_channels_item import PhoneNumberChannelsItem
from ..models.phone_number_source import PhoneNumberSource
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="PhoneNumber")



@_attrs_define
class PhoneNumber:
    """ A service number connected for messaging, and the agent that answers it.

        Attributes:
            id (str):
            object_ (Literal['phone_number']):
            livemode (bool):
            number (str):
            channels (list[PhoneNumberChannelsItem]):
            agent_id (None | str):
            inbound_webhook_url (None | str): Asked, for each inbound call, which agent answers it (`call.inbound`); null:
                `agent_id` answers.
            inbound_webhook_timeout_ms (int): How long an inbound call waits for the webhook's answer.
            overflow_to (None | str): Where inbound calls go while every call slot is taken; null: the caller hears that all
                lines are busy.
            source (PhoneNumberSource): How it came to the organization: `bought` through the service (released at Twilio
                when deleted), `imported` from the organization's Twilio account (only detached when deleted), `simulated` (test
                mode), `connected` (stored before numbers needed proof), `sip_trunk` (carried by one of its SIP trunks; deleting
                it removes it from the trunk).
            sip_trunk_id (None | str): The SIP trunk that carries it (`source: "sip_trunk"`); null otherwise.
            created (int): Unix time in seconds.
            inbound_webhook_secret (str | Unset): The signing secret of `inbound_webhook_url` requests (`Svc-Signature`);
                only in the response that set the URL.
     """

    id: str
    object_: Literal['phone_number']
    livemode: bool
    number: str
    channels: list[PhoneNumberChannelsItem]
    agent_id: None | str
    inbound_webhook_url: None | str
    inbound_webhook_timeout_ms: int
    overflow_to: None | str
    source: PhoneNumberSource
    sip_trunk_id: None | str
    created: int
    inbound_webhook_secret: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        number = self.number

        channels = []
        for channels_item_data in self.channels:
            channels_item = channels_item_data.value
            channels.append(channels_item)



        agent_id: None | str
        agent_id = self.agent_id

        inbound_webhook_url: None | str
        inbound_webhook_url = self.inbound_webhook_url

        inbound_webhook_timeout_ms = self.inbound_webhook_timeout_ms

        overflow_to: None | str
        overflow_to = self.overflow_to

        source = self.source.value

        sip_trunk_id: None | str
        sip_trunk_id = self.sip_trunk_id

        created = self.created

        inbound_webhook_secret = self.inbound_webhook_secret


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "number": number,
            "channels": channels,
            "agent_id": agent_id,
            "inbound_webhook_url": inbound_webhook_url,
            "inbound_webhook_timeout_ms": inbound_webhook_timeout_ms,
            "overflow_to": overflow_to,
            "source": source,
            "sip_trunk_id": sip_trunk_id,
            "created": created,
        })
        if inbound_webhook_secret is not UNSET:
            field_dict["inbound_webhook_secret"] = inbound_webhook_secret

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['phone_number'] , d.pop("object"))
        if object_ != 'phone_number':
            raise ValueError(f"object must match const 'phone_number', got '{object_}'")

        livemode = d.pop("livemode")

        number = d.pop("number")

        channels = []
        _channels = d.pop("channels")
        for channels_item_data in (_channels):
            channels_item = PhoneNumberChannelsItem(channels_item_data)



            channels.append(channels_item)


        def _parse_agent_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_id = _parse_agent_id(d.pop("agent_id"))


        def _parse_inbound_webhook_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        inbound_webhook_url = _parse_inbound_webhook_url(d.pop("inbound_webhook_url"))


        inbound_webhook_timeout_ms = d.pop("inbound_webhook_timeout_ms")

        def _parse_overflow_to(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        overflow_to = _parse_overflow_to(d.pop("overflow_to"))


        source = PhoneNumberSource(d.pop("source"))




        def _parse_sip_trunk_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        sip_trunk_id = _parse_sip_trunk_id(d.pop("sip_trunk_id"))


        created = d.pop("created")

        inbound_webhook_secret = d.pop("inbound_webhook_secret", UNSET)

        phone_number = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            number=number,
            channels=channels,
            agent_id=agent_id,
            inbound_webhook_url=inbound_webhook_url,
            inbound_webhook_timeout_ms=inbound_webhook_timeout_ms,
            overflow_to=overflow_to,
            source=source,
            sip_trunk_id=sip_trunk_id,
            created=created,
            inbound_webhook_secret=inbound_webhook_secret,
        )


        phone_number.additional_properties = d
        return phone_number

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
