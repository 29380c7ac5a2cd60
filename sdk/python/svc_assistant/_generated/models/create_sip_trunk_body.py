from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateSipTrunkBody")



@_attrs_define
class CreateSipTrunkBody:
    """ 
        Attributes:
            termination_uri (str): sip:<carrier host>[:port][;transport=udp|tcp|tls]
            numbers (list[str]):
            username (str | Unset):
            password (str | Unset):
            name (str | Unset):
            agent_id (str | Unset):
     """

    termination_uri: str
    numbers: list[str]
    username: str | Unset = UNSET
    password: str | Unset = UNSET
    name: str | Unset = UNSET
    agent_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        termination_uri = self.termination_uri

        numbers = self.numbers



        username = self.username

        password = self.password

        name = self.name

        agent_id = self.agent_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "termination_uri": termination_uri,
            "numbers": numbers,
        })
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
        termination_uri = d.pop("termination_uri")

        numbers = cast(list[str], d.pop("numbers"))


        username = d.pop("username", UNSET)

        password = d.pop("password", UNSET)

        name = d.pop("name", UNSET)

        agent_id = d.pop("agent_id", UNSET)

        create_sip_trunk_body = cls(
            termination_uri=termination_uri,
            numbers=numbers,
            username=username,
            password=password,
            name=name,
            agent_id=agent_id,
        )

        return create_sip_trunk_body

