from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.readiness_response_503_mongodb import ReadinessResponse503Mongodb
from ..models.readiness_response_503_status import ReadinessResponse503Status
from ..models.readiness_response_503_temporal import ReadinessResponse503Temporal
from ..types import UNSET, Unset






T = TypeVar("T", bound="ReadinessResponse503")



@_attrs_define
class ReadinessResponse503:
    """ 
        Attributes:
            status (ReadinessResponse503Status | Unset):
            mongodb (ReadinessResponse503Mongodb | Unset):
            temporal (ReadinessResponse503Temporal | Unset):
     """

    status: ReadinessResponse503Status | Unset = UNSET
    mongodb: ReadinessResponse503Mongodb | Unset = UNSET
    temporal: ReadinessResponse503Temporal | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value


        mongodb: str | Unset = UNSET
        if not isinstance(self.mongodb, Unset):
            mongodb = self.mongodb.value


        temporal: str | Unset = UNSET
        if not isinstance(self.temporal, Unset):
            temporal = self.temporal.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if status is not UNSET:
            field_dict["status"] = status
        if mongodb is not UNSET:
            field_dict["mongodb"] = mongodb
        if temporal is not UNSET:
            field_dict["temporal"] = temporal

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: ReadinessResponse503Status | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = ReadinessResponse503Status(_status)




        _mongodb = d.pop("mongodb", UNSET)
        mongodb: ReadinessResponse503Mongodb | Unset
        if isinstance(_mongodb,  Unset):
            mongodb = UNSET
        else:
            mongodb = ReadinessResponse503Mongodb(_mongodb)




        _temporal = d.pop("temporal", UNSET)
        temporal: ReadinessResponse503Temporal | Unset
        if isinstance(_temporal,  Unset):
            temporal = UNSET
        else:
            temporal = ReadinessResponse503Temporal(_temporal)




        readiness_response_503 = cls(
            status=status,
            mongodb=mongodb,
            temporal=temporal,
        )


        readiness_response_503.additional_properties = d
        return readiness_response_503

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
