from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_bulk_call_body_contacts_item_type_1_context import CreateBulkCallBodyContactsItemType1Context
  from ..models.create_bulk_call_body_contacts_item_type_1_metadata import CreateBulkCallBodyContactsItemType1Metadata
  from ..models.create_bulk_call_body_contacts_item_type_1_simulation import CreateBulkCallBodyContactsItemType1Simulation





T = TypeVar("T", bound="CreateBulkCallBodyContactsItemType1")



@_attrs_define
class CreateBulkCallBodyContactsItemType1:
    """ 
        Attributes:
            phone (str): A valid phone number in E.164 format.
            name (str | Unset):
            external_id (str | Unset):
            context (CreateBulkCallBodyContactsItemType1Context | Unset):
            metadata (CreateBulkCallBodyContactsItemType1Metadata | Unset):
            simulation (CreateBulkCallBodyContactsItemType1Simulation | Unset):
     """

    phone: str
    name: str | Unset = UNSET
    external_id: str | Unset = UNSET
    context: CreateBulkCallBodyContactsItemType1Context | Unset = UNSET
    metadata: CreateBulkCallBodyContactsItemType1Metadata | Unset = UNSET
    simulation: CreateBulkCallBodyContactsItemType1Simulation | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_bulk_call_body_contacts_item_type_1_context import CreateBulkCallBodyContactsItemType1Context # noqa: PLC0415
        from ..models.create_bulk_call_body_contacts_item_type_1_metadata import CreateBulkCallBodyContactsItemType1Metadata # noqa: PLC0415
        from ..models.create_bulk_call_body_contacts_item_type_1_simulation import CreateBulkCallBodyContactsItemType1Simulation # noqa: PLC0415
        phone = self.phone

        name = self.name

        external_id = self.external_id

        context: dict[str, Any] | Unset = UNSET
        if not isinstance(self.context, Unset):
            context = self.context.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        simulation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.simulation, Unset):
            simulation = self.simulation.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "phone": phone,
        })
        if name is not UNSET:
            field_dict["name"] = name
        if external_id is not UNSET:
            field_dict["external_id"] = external_id
        if context is not UNSET:
            field_dict["context"] = context
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if simulation is not UNSET:
            field_dict["simulation"] = simulation

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_bulk_call_body_contacts_item_type_1_context import CreateBulkCallBodyContactsItemType1Context # noqa: PLC0415
        from ..models.create_bulk_call_body_contacts_item_type_1_metadata import CreateBulkCallBodyContactsItemType1Metadata # noqa: PLC0415
        from ..models.create_bulk_call_body_contacts_item_type_1_simulation import CreateBulkCallBodyContactsItemType1Simulation # noqa: PLC0415
        d = dict(src_dict)
        phone = d.pop("phone")

        name = d.pop("name", UNSET)

        external_id = d.pop("external_id", UNSET)

        _context = d.pop("context", UNSET)
        context: CreateBulkCallBodyContactsItemType1Context | Unset
        if isinstance(_context,  Unset):
            context = UNSET
        else:
            context = CreateBulkCallBodyContactsItemType1Context.from_dict(_context)




        _metadata = d.pop("metadata", UNSET)
        metadata: CreateBulkCallBodyContactsItemType1Metadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = CreateBulkCallBodyContactsItemType1Metadata.from_dict(_metadata)




        _simulation = d.pop("simulation", UNSET)
        simulation: CreateBulkCallBodyContactsItemType1Simulation | Unset
        if isinstance(_simulation,  Unset):
            simulation = UNSET
        else:
            simulation = CreateBulkCallBodyContactsItemType1Simulation.from_dict(_simulation)




        create_bulk_call_body_contacts_item_type_1 = cls(
            phone=phone,
            name=name,
            external_id=external_id,
            context=context,
            metadata=metadata,
            simulation=simulation,
        )

        return create_bulk_call_body_contacts_item_type_1

