from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.erasure_status import ErasureStatus
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.erasure_counts import ErasureCounts
  from ..models.erasure_subject import ErasureSubject





T = TypeVar("T", bound="Erasure")



@_attrs_define
class Erasure:
    """ A person's erasure: what it removed or irreversibly redacted, by kind. The subject is shown masked.

        Attributes:
            id (str): `ers_…`
            object_ (Literal['erasure']):
            livemode (bool):
            status (ErasureStatus):
            subject (ErasureSubject):
            counts (ErasureCounts):
            created (int): Unix time in seconds.
            completed_at (int | None):
     """

    id: str
    object_: Literal['erasure']
    livemode: bool
    status: ErasureStatus
    subject: ErasureSubject
    counts: ErasureCounts
    created: int
    completed_at: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.erasure_counts import ErasureCounts # noqa: PLC0415
        from ..models.erasure_subject import ErasureSubject # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        status = self.status.value

        subject = self.subject.to_dict()

        counts = self.counts.to_dict()

        created = self.created

        completed_at: int | None
        completed_at = self.completed_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "status": status,
            "subject": subject,
            "counts": counts,
            "created": created,
            "completed_at": completed_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.erasure_counts import ErasureCounts # noqa: PLC0415
        from ..models.erasure_subject import ErasureSubject # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['erasure'] , d.pop("object"))
        if object_ != 'erasure':
            raise ValueError(f"object must match const 'erasure', got '{object_}'")

        livemode = d.pop("livemode")

        status = ErasureStatus(d.pop("status"))




        subject = ErasureSubject.from_dict(d.pop("subject"))




        counts = ErasureCounts.from_dict(d.pop("counts"))




        created = d.pop("created")

        def _parse_completed_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))


        erasure = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            status=status,
            subject=subject,
            counts=counts,
            created=created,
            completed_at=completed_at,
        )


        erasure.additional_properties = d
        return erasure

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
