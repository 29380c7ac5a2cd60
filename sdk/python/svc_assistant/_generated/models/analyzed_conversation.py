from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.analyzed_conversation_channel import AnalyzedConversationChannel
from ..models.analyzed_conversation_status import AnalyzedConversationStatus
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.analysis import Analysis
  from ..models.cost import Cost





T = TypeVar("T", bound="AnalyzedConversation")



@_attrs_define
class AnalyzedConversation:
    """ A conversation with the analysis just stored (`conversation.analyzed`).

        Attributes:
            id (str):
            object_ (Literal['conversation']):
            livemode (bool):
            channel (AnalyzedConversationChannel):
            customer_number (str):
            service_number (str):
            agent_id (None | str):
            agent_version (int | None): The version of `agent_id` the conversation runs, fixed on its first turn with that
                agent; null before.
            status (AnalyzedConversationStatus):
            handoff_reason (None | str):
            taken_by (None | str): The staff user (`usr_…`) who took the conversation over in the console; null otherwise.
            window_expires_at (int | None):
            last_message_at (int | None):
            contact_id (None | str):
            created (int): Unix time in seconds.
            analysis (Analysis): What the model made of a finished call or conversation: a summary, structured data valid
                against the plan's schema, a success verdict.
            cost (Cost | None | Unset): What its assistant's model requests cost so far (`GET /v1/conversations/{id}` only:
                absent in lists and events): a conversation stays open, so each turn's cost is recorded when its answer comes,
                at the price table then in force (README "Costs"); null when none was recorded. Its analyses are priced apart.
     """

    id: str
    object_: Literal['conversation']
    livemode: bool
    channel: AnalyzedConversationChannel
    customer_number: str
    service_number: str
    agent_id: None | str
    agent_version: int | None
    status: AnalyzedConversationStatus
    handoff_reason: None | str
    taken_by: None | str
    window_expires_at: int | None
    last_message_at: int | None
    contact_id: None | str
    created: int
    analysis: Analysis
    cost: Cost | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.analysis import Analysis # noqa: PLC0415
        from ..models.cost import Cost # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        channel = self.channel.value

        customer_number = self.customer_number

        service_number = self.service_number

        agent_id: None | str
        agent_id = self.agent_id

        agent_version: int | None
        agent_version = self.agent_version

        status = self.status.value

        handoff_reason: None | str
        handoff_reason = self.handoff_reason

        taken_by: None | str
        taken_by = self.taken_by

        window_expires_at: int | None
        window_expires_at = self.window_expires_at

        last_message_at: int | None
        last_message_at = self.last_message_at

        contact_id: None | str
        contact_id = self.contact_id

        created = self.created

        analysis = self.analysis.to_dict()

        cost: dict[str, Any] | None | Unset
        if isinstance(self.cost, Unset):
            cost = UNSET
        elif isinstance(self.cost, Cost):
            cost = self.cost.to_dict()
        else:
            cost = self.cost


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "channel": channel,
            "customer_number": customer_number,
            "service_number": service_number,
            "agent_id": agent_id,
            "agent_version": agent_version,
            "status": status,
            "handoff_reason": handoff_reason,
            "taken_by": taken_by,
            "window_expires_at": window_expires_at,
            "last_message_at": last_message_at,
            "contact_id": contact_id,
            "created": created,
            "analysis": analysis,
        })
        if cost is not UNSET:
            field_dict["cost"] = cost

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.analysis import Analysis # noqa: PLC0415
        from ..models.cost import Cost # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['conversation'] , d.pop("object"))
        if object_ != 'conversation':
            raise ValueError(f"object must match const 'conversation', got '{object_}'")

        livemode = d.pop("livemode")

        channel = AnalyzedConversationChannel(d.pop("channel"))




        customer_number = d.pop("customer_number")

        service_number = d.pop("service_number")

        def _parse_agent_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_id = _parse_agent_id(d.pop("agent_id"))


        def _parse_agent_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        agent_version = _parse_agent_version(d.pop("agent_version"))


        status = AnalyzedConversationStatus(d.pop("status"))




        def _parse_handoff_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        handoff_reason = _parse_handoff_reason(d.pop("handoff_reason"))


        def _parse_taken_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        taken_by = _parse_taken_by(d.pop("taken_by"))


        def _parse_window_expires_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        window_expires_at = _parse_window_expires_at(d.pop("window_expires_at"))


        def _parse_last_message_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_message_at = _parse_last_message_at(d.pop("last_message_at"))


        def _parse_contact_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contact_id = _parse_contact_id(d.pop("contact_id"))


        created = d.pop("created")

        analysis = Analysis.from_dict(d.pop("analysis"))




        def _parse_cost(data: object) -> Cost | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                cost_type_0 = Cost.from_dict(data)



                return cost_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Cost | None | Unset, data)

        cost = _parse_cost(d.pop("cost", UNSET))


        analyzed_conversation = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            channel=channel,
            customer_number=customer_number,
            service_number=service_number,
            agent_id=agent_id,
            agent_version=agent_version,
            status=status,
            handoff_reason=handoff_reason,
            taken_by=taken_by,
            window_expires_at=window_expires_at,
            last_message_at=last_message_at,
            contact_id=contact_id,
            created=created,
            analysis=analysis,
            cost=cost,
        )


        analyzed_conversation.additional_properties = d
        return analyzed_conversation

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
