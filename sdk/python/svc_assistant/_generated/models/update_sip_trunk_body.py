from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateSipTrunkBody")



@_attrs_define
class UpdateSipTrunkBody:
    """ 
        Attributes:
            termination_uri (str | Unset): sip:<carrier host>[:port][;transport=udp|tcp|tls]
            numbers (list[str] | Unset):
            username (None | str | Unset):
            password (None | str | Unset):
            name (None | str | Unset):
            agent_id (None | str | Unset):
     """

    termination_uri: str | Unset = UNSET
    numbers: list[str] | Unset = UNSET
    username: None | str | Unset = UNSET
    password: None | str | Unset = UNSET
    name: None | str | Unset = UNSET
    agent_id: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        termination_uri = self.termination_uri

        numbers: list[str] | Unset = UNSET
        if not isinstance(self.numbers, Unset):
            numbers = self.numbers



        username: None | str | Unset
        if isinstance(self.username, Unset):
            username = UNSET
        else:
            username = self.username

        password: None | str | Unset
        if isinstance(self.password, Unset):
            password = UNSET
        else:
            password = self.password

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        else:
            agent_id = self.agent_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if termination_uri is not UNSET:
            field_dict["termination_uri"] = termination_uri
        if numbers is not UNSET:
            field_dict["numbers"] = numbers
        if username is not UNSET:
            field_dict["username"] = username
        if password is not UNSET:
            field_dict["password"] = password
        if name is not UNSET:
            field_dict["name"] = name
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        termination_uri = d.pop("termination_uri", UNSET)

        numbers = cast(list[str], d.pop("numbers", UNSET))


        def _parse_username(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        username = _parse_username(d.pop("username", UNSET))


        def _parse_password(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        password = _parse_password(d.pop("password", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_agent_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_id = _parse_agent_id(d.pop("agent_id", UNSET))


        update_sip_trunk_body = cls(
            termination_uri=termination_uri,
            numbers=numbers,
            username=username,
            password=password,
            name=name,
            agent_id=agent_id,
        )

        return update_sip_trunk_body

