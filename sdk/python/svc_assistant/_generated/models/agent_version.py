from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.agent_version_config import AgentVersionConfig





T = TypeVar("T", bound="AgentVersion")



@_attrs_define
class AgentVersion:
    """ An immutable snapshot of an agent's configuration. Calls and conversations record the version they ran
    (`agent_version`).

        Attributes:
            id (str):
            object_ (Literal['agent_version']):
            livemode (bool):
            agent_id (str):
            number (int): 1, 2, 3… in the order the versions were made.
            draft (bool): Made by an update with `"publish": false` (not published when made).
            published (bool): Whether it is the version new calls use (absent a traffic split).
            published_at (int | None): When it was first published; null while it never was.
            config (AgentVersionConfig): The configuration of the agent this version fixes (the fields of the agent object
                that it covers).
            created (int): Unix time in seconds.
     """

    id: str
    object_: Literal['agent_version']
    livemode: bool
    agent_id: str
    number: int
    draft: bool
    published: bool
    published_at: int | None
    config: AgentVersionConfig
    created: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_version_config import AgentVersionConfig # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        agent_id = self.agent_id

        number = self.number

        draft = self.draft

        published = self.published

        published_at: int | None
        published_at = self.published_at

        config = self.config.to_dict()

        created = self.created


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "agent_id": agent_id,
            "number": number,
            "draft": draft,
            "published": published,
            "published_at": published_at,
            "config": config,
            "created": created,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_version_config import AgentVersionConfig # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['agent_version'] , d.pop("object"))
        if object_ != 'agent_version':
            raise ValueError(f"object must match const 'agent_version', got '{object_}'")

        livemode = d.pop("livemode")

        agent_id = d.pop("agent_id")

        number = d.pop("number")

        draft = d.pop("draft")

        published = d.pop("published")

        def _parse_published_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        published_at = _parse_published_at(d.pop("published_at"))


        config = AgentVersionConfig.from_dict(d.pop("config"))




        created = d.pop("created")

        agent_version = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            agent_id=agent_id,
            number=number,
            draft=draft,
            published=published,
            published_at=published_at,
            config=config,
            created=created,
        )


        agent_version.additional_properties = d
        return agent_version

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
