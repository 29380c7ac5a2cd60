from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ErasureCounts")



@_attrs_define
class ErasureCounts:
    """ 
        Attributes:
            contacts (int): How many contacts were erased.
            records (int): How many records were erased.
            calls (int): How many calls were erased.
            transcript_turns (int): How many transcript turns were erased.
            conversations (int): How many conversations were erased.
            messages (int): How many messages were erased.
            recordings (int): How many recordings were erased.
            analyses (int): How many analyses were erased.
            bulk_call_results (int): How many bulk call results were erased.
            events (int): How many events were erased.
            webhook_attempts (int): How many webhook attempts were erased.
            idempotency_records (int): How many idempotency records were erased.
     """

    contacts: int
    records: int
    calls: int
    transcript_turns: int
    conversations: int
    messages: int
    recordings: int
    analyses: int
    bulk_call_results: int
    events: int
    webhook_attempts: int
    idempotency_records: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        contacts = self.contacts

        records = self.records

        calls = self.calls

        transcript_turns = self.transcript_turns

        conversations = self.conversations

        messages = self.messages

        recordings = self.recordings

        analyses = self.analyses

        bulk_call_results = self.bulk_call_results

        events = self.events

        webhook_attempts = self.webhook_attempts

        idempotency_records = self.idempotency_records


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "contacts": contacts,
            "records": records,
            "calls": calls,
            "transcript_turns": transcript_turns,
            "conversations": conversations,
            "messages": messages,
            "recordings": recordings,
            "analyses": analyses,
            "bulk_call_results": bulk_call_results,
            "events": events,
            "webhook_attempts": webhook_attempts,
            "idempotency_records": idempotency_records,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        contacts = d.pop("contacts")

        records = d.pop("records")

        calls = d.pop("calls")

        transcript_turns = d.pop("transcript_turns")

        conversations = d.pop("conversations")

        messages = d.pop("messages")

        recordings = d.pop("recordings")

        analyses = d.pop("analyses")

        bulk_call_results = d.pop("bulk_call_results")

        events = d.pop("events")

        webhook_attempts = d.pop("webhook_attempts")

        idempotency_records = d.pop("idempotency_records")

        erasure_counts = cls(
            contacts=contacts,
            records=records,
            calls=calls,
            transcript_turns=transcript_turns,
            conversations=conversations,
            messages=messages,
            recordings=recordings,
            analyses=analyses,
            bulk_call_results=bulk_call_results,
            events=events,
            webhook_attempts=webhook_attempts,
            idempotency_records=idempotency_records,
        )


        erasure_counts.additional_properties = d
        return erasure_counts

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
