from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.bulk_call_result_contact_context import BulkCallResultContactContext
  from ..models.bulk_call_result_contact_metadata import BulkCallResultContactMetadata
  from ..models.simulation import Simulation





T = TypeVar("T", bound="BulkCallResultContact")



@_attrs_define
class BulkCallResultContact:
    """ 
        Attributes:
            phone (str):
            name (str | Unset):
            external_id (str | Unset):
            context (BulkCallResultContactContext | Unset):
            metadata (BulkCallResultContactMetadata | Unset): Your key-value pairs (at most 50 keys).
            simulation (Simulation | Unset): Test mode: how a simulated call goes (what the caller says, the outcome,
                timings, a transfer).
     """

    phone: str
    name: str | Unset = UNSET
    external_id: str | Unset = UNSET
    context: BulkCallResultContactContext | Unset = UNSET
    metadata: BulkCallResultContactMetadata | Unset = UNSET
    simulation: Simulation | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.bulk_call_result_contact_context import BulkCallResultContactContext # noqa: PLC0415
        from ..models.bulk_call_result_contact_metadata import BulkCallResultContactMetadata # noqa: PLC0415
        from ..models.simulation import Simulation # noqa: PLC0415
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
        field_dict.update(self.additional_properties)
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
        from ..models.bulk_call_result_contact_context import BulkCallResultContactContext # noqa: PLC0415
        from ..models.bulk_call_result_contact_metadata import BulkCallResultContactMetadata # noqa: PLC0415
        from ..models.simulation import Simulation # noqa: PLC0415
        d = dict(src_dict)
        phone = d.pop("phone")

        name = d.pop("name", UNSET)

        external_id = d.pop("external_id", UNSET)

        _context = d.pop("context", UNSET)
        context: BulkCallResultContactContext | Unset
        if isinstance(_context,  Unset):
            context = UNSET
        else:
            context = BulkCallResultContactContext.from_dict(_context)




        _metadata = d.pop("metadata", UNSET)
        metadata: BulkCallResultContactMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = BulkCallResultContactMetadata.from_dict(_metadata)




        _simulation = d.pop("simulation", UNSET)
        simulation: Simulation | Unset
        if isinstance(_simulation,  Unset):
            simulation = UNSET
        else:
            simulation = Simulation.from_dict(_simulation)




        bulk_call_result_contact = cls(
            phone=phone,
            name=name,
            external_id=external_id,
            context=context,
            metadata=metadata,
            simulation=simulation,
        )


        bulk_call_result_contact.additional_properties = d
        return bulk_call_result_contact

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
