from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.publisher_key_status import PublisherKeyStatus
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="PublisherKey")



@_attrs_define
class PublisherKey:
    """ An Ed25519 public key that signs connector versions.

        Attributes:
            id (str):
            object_ (Literal['publisher_key']):
            livemode (bool):
            name (None | str):
            algorithm (Literal['ed25519']):
            public_key (str):
            fingerprint (str):
            status (PublisherKeyStatus):
            expires_at (int | None):
            revoked_at (int | None):
            created (int): Unix time in seconds.
     """

    id: str
    object_: Literal['publisher_key']
    livemode: bool
    name: None | str
    algorithm: Literal['ed25519']
    public_key: str
    fingerprint: str
    status: PublisherKeyStatus
    expires_at: int | None
    revoked_at: int | None
    created: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        name: None | str
        name = self.name

        algorithm = self.algorithm

        public_key = self.public_key

        fingerprint = self.fingerprint

        status = self.status.value

        expires_at: int | None
        expires_at = self.expires_at

        revoked_at: int | None
        revoked_at = self.revoked_at

        created = self.created


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "name": name,
            "algorithm": algorithm,
            "public_key": public_key,
            "fingerprint": fingerprint,
            "status": status,
            "expires_at": expires_at,
            "revoked_at": revoked_at,
            "created": created,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['publisher_key'] , d.pop("object"))
        if object_ != 'publisher_key':
            raise ValueError(f"object must match const 'publisher_key', got '{object_}'")

        livemode = d.pop("livemode")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        algorithm = cast(Literal['ed25519'] , d.pop("algorithm"))
        if algorithm != 'ed25519':
            raise ValueError(f"algorithm must match const 'ed25519', got '{algorithm}'")

        public_key = d.pop("public_key")

        fingerprint = d.pop("fingerprint")

        status = PublisherKeyStatus(d.pop("status"))




        def _parse_expires_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        expires_at = _parse_expires_at(d.pop("expires_at"))


        def _parse_revoked_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at"))


        created = d.pop("created")

        publisher_key = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            name=name,
            algorithm=algorithm,
            public_key=public_key,
            fingerprint=fingerprint,
            status=status,
            expires_at=expires_at,
            revoked_at=revoked_at,
            created=created,
        )


        publisher_key.additional_properties = d
        return publisher_key

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
