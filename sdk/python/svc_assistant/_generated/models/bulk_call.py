from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.bulk_call_status import BulkCallStatus
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.bulk_call_counts import BulkCallCounts
  from ..models.bulk_call_metadata import BulkCallMetadata
  from ..models.bulk_call_retry import BulkCallRetry
  from ..models.bulk_call_schedule import BulkCallSchedule
  from ..models.simulation import Simulation





T = TypeVar("T", bound="BulkCall")



@_attrs_define
class BulkCall:
    """ A campaign that calls a list of contacts and fills a form on each call.

        Attributes:
            id (str):
            object_ (Literal['bulk_call']):
            livemode (bool):
            name (None | str):
            status (BulkCallStatus):
            agent_id (str):
            form_id (str):
            from_ (None | str):
            max_concurrency (int):
            max_duration_seconds (int):
            schedule (BulkCallSchedule | None): When contacts are called; null: at once, any time.
            retry (BulkCallRetry):
            metadata (BulkCallMetadata): Your key-value pairs (at most 50 keys).
            counts (BulkCallCounts):
            duplicates_removed (int):
            created (int): Unix time in seconds.
            completed_at (int | None):
            simulation (Simulation | Unset): Test mode: how a simulated call goes (what the caller says, the outcome,
                timings, a transfer).
     """

    id: str
    object_: Literal['bulk_call']
    livemode: bool
    name: None | str
    status: BulkCallStatus
    agent_id: str
    form_id: str
    from_: None | str
    max_concurrency: int
    max_duration_seconds: int
    schedule: BulkCallSchedule | None
    retry: BulkCallRetry
    metadata: BulkCallMetadata
    counts: BulkCallCounts
    duplicates_removed: int
    created: int
    completed_at: int | None
    simulation: Simulation | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.bulk_call_counts import BulkCallCounts # noqa: PLC0415
        from ..models.bulk_call_metadata import BulkCallMetadata # noqa: PLC0415
        from ..models.bulk_call_retry import BulkCallRetry # noqa: PLC0415
        from ..models.bulk_call_schedule import BulkCallSchedule # noqa: PLC0415
        from ..models.simulation import Simulation # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        name: None | str
        name = self.name

        status = self.status.value

        agent_id = self.agent_id

        form_id = self.form_id

        from_: None | str
        from_ = self.from_

        max_concurrency = self.max_concurrency

        max_duration_seconds = self.max_duration_seconds

        schedule: dict[str, Any] | None
        if isinstance(self.schedule, BulkCallSchedule):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule

        retry = self.retry.to_dict()

        metadata = self.metadata.to_dict()

        counts = self.counts.to_dict()

        duplicates_removed = self.duplicates_removed

        created = self.created

        completed_at: int | None
        completed_at = self.completed_at

        simulation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.simulation, Unset):
            simulation = self.simulation.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "name": name,
            "status": status,
            "agent_id": agent_id,
            "form_id": form_id,
            "from": from_,
            "max_concurrency": max_concurrency,
            "max_duration_seconds": max_duration_seconds,
            "schedule": schedule,
            "retry": retry,
            "metadata": metadata,
            "counts": counts,
            "duplicates_removed": duplicates_removed,
            "created": created,
            "completed_at": completed_at,
        })
        if simulation is not UNSET:
            field_dict["simulation"] = simulation

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bulk_call_counts import BulkCallCounts # noqa: PLC0415
        from ..models.bulk_call_metadata import BulkCallMetadata # noqa: PLC0415
        from ..models.bulk_call_retry import BulkCallRetry # noqa: PLC0415
        from ..models.bulk_call_schedule import BulkCallSchedule # noqa: PLC0415
        from ..models.simulation import Simulation # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['bulk_call'] , d.pop("object"))
        if object_ != 'bulk_call':
            raise ValueError(f"object must match const 'bulk_call', got '{object_}'")

        livemode = d.pop("livemode")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        status = BulkCallStatus(d.pop("status"))




        agent_id = d.pop("agent_id")

        form_id = d.pop("form_id")

        def _parse_from_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        from_ = _parse_from_(d.pop("from"))


        max_concurrency = d.pop("max_concurrency")

        max_duration_seconds = d.pop("max_duration_seconds")

        def _parse_schedule(data: object) -> BulkCallSchedule | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = BulkCallSchedule.from_dict(data)



                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BulkCallSchedule | None, data)

        schedule = _parse_schedule(d.pop("schedule"))


        retry = BulkCallRetry.from_dict(d.pop("retry"))




        metadata = BulkCallMetadata.from_dict(d.pop("metadata"))




        counts = BulkCallCounts.from_dict(d.pop("counts"))




        duplicates_removed = d.pop("duplicates_removed")

        created = d.pop("created")

        def _parse_completed_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))


        _simulation = d.pop("simulation", UNSET)
        simulation: Simulation | Unset
        if isinstance(_simulation,  Unset):
            simulation = UNSET
        else:
            simulation = Simulation.from_dict(_simulation)




        bulk_call = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            name=name,
            status=status,
            agent_id=agent_id,
            form_id=form_id,
            from_=from_,
            max_concurrency=max_concurrency,
            max_duration_seconds=max_duration_seconds,
            schedule=schedule,
            retry=retry,
            metadata=metadata,
            counts=counts,
            duplicates_removed=duplicates_removed,
            created=created,
            completed_at=completed_at,
            simulation=simulation,
        )


        bulk_call.additional_properties = d
        return bulk_call

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
