from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="SipTrunk")



@_attrs_define
class SipTrunk:
    """ The organization's own carrier (bring your own carrier): calls from its numbers dial out through it, calls arriving
    from it are answered like calls to its numbers.

        Attributes:
            id (str):
            object_ (Literal['sip_trunk']):
            livemode (bool):
            name (None | str):
            termination_uri (str): Where calls from its numbers go: `sip:<carrier host>[:port][;transport=…]`, dialed as
                `sip:<E.164>@<host>`.
            username (None | str): The SIP username the carrier challenges for; null: none.
            password_set (bool): Whether a SIP password is stored (it is never shown).
            numbers (list[str]): The E.164 numbers it carries, each one of the organization's phone numbers (`source:
                "sip_trunk"`).
            agent_id (None | str): The agent that answers calls to its numbers (set on each number).
            byoc_trunk_sid (None | str): The BYOC trunk in the organization's Twilio account (`BY…`); null in test mode.
            created (int): Unix time in seconds.
     """

    id: str
    object_: Literal['sip_trunk']
    livemode: bool
    name: None | str
    termination_uri: str
    username: None | str
    password_set: bool
    numbers: list[str]
    agent_id: None | str
    byoc_trunk_sid: None | str
    created: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        name: None | str
        name = self.name

        termination_uri = self.termination_uri

        username: None | str
        username = self.username

        password_set = self.password_set

        numbers = self.numbers



        agent_id: None | str
        agent_id = self.agent_id

        byoc_trunk_sid: None | str
        byoc_trunk_sid = self.byoc_trunk_sid

        created = self.created


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "name": name,
            "termination_uri": termination_uri,
            "username": username,
            "password_set": password_set,
            "numbers": numbers,
            "agent_id": agent_id,
            "byoc_trunk_sid": byoc_trunk_sid,
            "created": created,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['sip_trunk'] , d.pop("object"))
        if object_ != 'sip_trunk':
            raise ValueError(f"object must match const 'sip_trunk', got '{object_}'")

        livemode = d.pop("livemode")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        termination_uri = d.pop("termination_uri")

        def _parse_username(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        username = _parse_username(d.pop("username"))


        password_set = d.pop("password_set")

        numbers = cast(list[str], d.pop("numbers"))


        def _parse_agent_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_id = _parse_agent_id(d.pop("agent_id"))


        def _parse_byoc_trunk_sid(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        byoc_trunk_sid = _parse_byoc_trunk_sid(d.pop("byoc_trunk_sid"))


        created = d.pop("created")

        sip_trunk = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            name=name,
            termination_uri=termination_uri,
            username=username,
            password_set=password_set,
            numbers=numbers,
            agent_id=agent_id,
            byoc_trunk_sid=byoc_trunk_sid,
            created=created,
        )


        sip_trunk.additional_properties = d
        return sip_trunk

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
