from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.audit_event_actor import AuditEventActor
  from ..models.audit_event_outcome import AuditEventOutcome





T = TypeVar("T", bound="AuditEvent")



@_attrs_define
class AuditEvent:
    """ One entry of the audit log: who did what, to which objects, from where, with which outcome. Entries cannot be
    changed or deleted; they are kept `AUDIT_RETENTION_DAYS` days.

        Attributes:
            id (str):
            object_ (Literal['audit_event']):
            livemode (bool):
            actor (AuditEventActor):
            action (str): The method and the route template, e.g. `POST /v1/calls`, `GET /v1/calls/{id}/transcript`.
            object_ids (list[str]): The ids in the request's path, then the id of the object the answer returned.
            request_id (None | str): The `Request-Id` of the request.
            ip (None | str): The client's address (behind a proxy: as `TRUST_PROXY` says).
            outcome (AuditEventOutcome):
            created (int): Unix time in seconds.
     """

    id: str
    object_: Literal['audit_event']
    livemode: bool
    actor: AuditEventActor
    action: str
    object_ids: list[str]
    request_id: None | str
    ip: None | str
    outcome: AuditEventOutcome
    created: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_event_actor import AuditEventActor # noqa: PLC0415
        from ..models.audit_event_outcome import AuditEventOutcome # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        actor = self.actor.to_dict()

        action = self.action

        object_ids = self.object_ids



        request_id: None | str
        request_id = self.request_id

        ip: None | str
        ip = self.ip

        outcome = self.outcome.to_dict()

        created = self.created


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "actor": actor,
            "action": action,
            "object_ids": object_ids,
            "request_id": request_id,
            "ip": ip,
            "outcome": outcome,
            "created": created,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_event_actor import AuditEventActor # noqa: PLC0415
        from ..models.audit_event_outcome import AuditEventOutcome # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['audit_event'] , d.pop("object"))
        if object_ != 'audit_event':
            raise ValueError(f"object must match const 'audit_event', got '{object_}'")

        livemode = d.pop("livemode")

        actor = AuditEventActor.from_dict(d.pop("actor"))




        action = d.pop("action")

        object_ids = cast(list[str], d.pop("object_ids"))


        def _parse_request_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        request_id = _parse_request_id(d.pop("request_id"))


        def _parse_ip(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ip = _parse_ip(d.pop("ip"))


        outcome = AuditEventOutcome.from_dict(d.pop("outcome"))




        created = d.pop("created")

        audit_event = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            actor=actor,
            action=action,
            object_ids=object_ids,
            request_id=request_id,
            ip=ip,
            outcome=outcome,
            created=created,
        )


        audit_event.additional_properties = d
        return audit_event

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
