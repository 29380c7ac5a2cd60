from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_bulk_call_body_contacts_item_type_1 import CreateBulkCallBodyContactsItemType1
  from ..models.create_bulk_call_body_metadata import CreateBulkCallBodyMetadata
  from ..models.create_bulk_call_body_retry import CreateBulkCallBodyRetry
  from ..models.create_bulk_call_body_schedule import CreateBulkCallBodySchedule
  from ..models.create_bulk_call_body_simulation import CreateBulkCallBodySimulation





T = TypeVar("T", bound="CreateBulkCallBody")



@_attrs_define
class CreateBulkCallBody:
    """ 
        Attributes:
            agent_id (str):
            form_id (str):
            contacts (list[CreateBulkCallBodyContactsItemType1 | str]):
            name (str | Unset):
            from_ (str | Unset): A valid phone number in E.164 format.
            max_concurrency (int | Unset):
            max_duration_seconds (int | Unset):
            schedule (CreateBulkCallBodySchedule | Unset):
            retry (CreateBulkCallBodyRetry | Unset):
            metadata (CreateBulkCallBodyMetadata | Unset):
            simulation (CreateBulkCallBodySimulation | Unset):
     """

    agent_id: str
    form_id: str
    contacts: list[CreateBulkCallBodyContactsItemType1 | str]
    name: str | Unset = UNSET
    from_: str | Unset = UNSET
    max_concurrency: int | Unset = UNSET
    max_duration_seconds: int | Unset = UNSET
    schedule: CreateBulkCallBodySchedule | Unset = UNSET
    retry: CreateBulkCallBodyRetry | Unset = UNSET
    metadata: CreateBulkCallBodyMetadata | Unset = UNSET
    simulation: CreateBulkCallBodySimulation | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_bulk_call_body_contacts_item_type_1 import CreateBulkCallBodyContactsItemType1 # noqa: PLC0415
        from ..models.create_bulk_call_body_metadata import CreateBulkCallBodyMetadata # noqa: PLC0415
        from ..models.create_bulk_call_body_retry import CreateBulkCallBodyRetry # noqa: PLC0415
        from ..models.create_bulk_call_body_schedule import CreateBulkCallBodySchedule # noqa: PLC0415
        from ..models.create_bulk_call_body_simulation import CreateBulkCallBodySimulation # noqa: PLC0415
        agent_id = self.agent_id

        form_id = self.form_id

        contacts = []
        for contacts_item_data in self.contacts:
            contacts_item: dict[str, Any] | str
            if isinstance(contacts_item_data, CreateBulkCallBodyContactsItemType1):
                contacts_item = contacts_item_data.to_dict()
            else:
                contacts_item = contacts_item_data
            contacts.append(contacts_item)



        name = self.name

        from_ = self.from_

        max_concurrency = self.max_concurrency

        max_duration_seconds = self.max_duration_seconds

        schedule: dict[str, Any] | Unset = UNSET
        if not isinstance(self.schedule, Unset):
            schedule = self.schedule.to_dict()

        retry: dict[str, Any] | Unset = UNSET
        if not isinstance(self.retry, Unset):
            retry = self.retry.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        simulation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.simulation, Unset):
            simulation = self.simulation.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent_id": agent_id,
            "form_id": form_id,
            "contacts": contacts,
        })
        if name is not UNSET:
            field_dict["name"] = name
        if from_ is not UNSET:
            field_dict["from"] = from_
        if max_concurrency is not UNSET:
            field_dict["max_concurrency"] = max_concurrency
        if max_duration_seconds is not UNSET:
            field_dict["max_duration_seconds"] = max_duration_seconds
        if schedule is not UNSET:
            field_dict["schedule"] = schedule
        if retry is not UNSET:
            field_dict["retry"] = retry
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if simulation is not UNSET:
            field_dict["simulation"] = simulation

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_bulk_call_body_contacts_item_type_1 import CreateBulkCallBodyContactsItemType1 # noqa: PLC0415
        from ..models.create_bulk_call_body_metadata import CreateBulkCallBodyMetadata # noqa: PLC0415
        from ..models.create_bulk_call_body_retry import CreateBulkCallBodyRetry # noqa: PLC0415
        from ..models.create_bulk_call_body_schedule import CreateBulkCallBodySchedule # noqa: PLC0415
        from ..models.create_bulk_call_body_simulation import CreateBulkCallBodySimulation # noqa: PLC0415
        d = dict(src_dict)
        agent_id = d.pop("agent_id")

        form_id = d.pop("form_id")

        contacts = []
        _contacts = d.pop("contacts")
        for contacts_item_data in (_contacts):
            def _parse_contacts_item(data: object) -> CreateBulkCallBodyContactsItemType1 | str:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    contacts_item_type_1 = CreateBulkCallBodyContactsItemType1.from_dict(data)



                    return contacts_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(CreateBulkCallBodyContactsItemType1 | str, data)

            contacts_item = _parse_contacts_item(contacts_item_data)

            contacts.append(contacts_item)


        name = d.pop("name", UNSET)

        from_ = d.pop("from", UNSET)

        max_concurrency = d.pop("max_concurrency", UNSET)

        max_duration_seconds = d.pop("max_duration_seconds", UNSET)

        _schedule = d.pop("schedule", UNSET)
        schedule: CreateBulkCallBodySchedule | Unset
        if isinstance(_schedule,  Unset):
            schedule = UNSET
        else:
            schedule = CreateBulkCallBodySchedule.from_dict(_schedule)




        _retry = d.pop("retry", UNSET)
        retry: CreateBulkCallBodyRetry | Unset
        if isinstance(_retry,  Unset):
            retry = UNSET
        else:
            retry = CreateBulkCallBodyRetry.from_dict(_retry)




        _metadata = d.pop("metadata", UNSET)
        metadata: CreateBulkCallBodyMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = CreateBulkCallBodyMetadata.from_dict(_metadata)




        _simulation = d.pop("simulation", UNSET)
        simulation: CreateBulkCallBodySimulation | Unset
        if isinstance(_simulation,  Unset):
            simulation = UNSET
        else:
            simulation = CreateBulkCallBodySimulation.from_dict(_simulation)




        create_bulk_call_body = cls(
            agent_id=agent_id,
            form_id=form_id,
            contacts=contacts,
            name=name,
            from_=from_,
            max_concurrency=max_concurrency,
            max_duration_seconds=max_duration_seconds,
            schedule=schedule,
            retry=retry,
            metadata=metadata,
            simulation=simulation,
        )

        return create_bulk_call_body

