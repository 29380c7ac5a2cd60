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
            schedule (Any | None):
            retry (BulkCallRetry):
            metadata (BulkCallMetadata): Your key-value pairs (at most 50 keys).
            counts (BulkCallCounts):
            duplicates_removed (int):
            created (int): Unix time in seconds.
            completed_at (int | None):
            simulation (Any | Unset):
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
    schedule: Any | None
    retry: BulkCallRetry
    metadata: BulkCallMetadata
    counts: BulkCallCounts
    duplicates_removed: int
    created: int
    completed_at: int | None
    simulation: Any | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.bulk_call_counts import BulkCallCounts # noqa: PLC0415
        from ..models.bulk_call_metadata import BulkCallMetadata # noqa: PLC0415
        from ..models.bulk_call_retry import BulkCallRetry # noqa: PLC0415
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

        schedule: Any | None
        schedule = self.schedule

        retry = self.retry.to_dict()

        metadata = self.metadata.to_dict()

        counts = self.counts.to_dict()

        duplicates_removed = self.duplicates_removed

        created = self.created

        completed_at: int | None
        completed_at = self.completed_at

        simulation = self.simulation


        field_dict: dict[str, Any] = {}

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

        def _parse_schedule(data: object) -> Any | None:
            if data is None:
                return data
            return cast(Any | None, data)

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


        simulation = d.pop("simulation", UNSET)

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

        return bulk_call

