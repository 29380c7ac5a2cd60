from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.recording_content_type import RecordingContentType
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="Recording")



@_attrs_define
class Recording:
    """ A call's recording, kept in the service's own store (a live call's copy at Twilio is deleted once copied): two
    channels, the caller on the first, the assistant on the second.

        Attributes:
            id (str):
            object_ (Literal['recording']):
            livemode (bool):
            call_id (str):
            duration_ms (int): Length of the audio, ms.
            channels (int): 2: the caller (or visitor) on channel 1, the assistant on channel 2.
            content_type (RecordingContentType):
            size_bytes (int):
            created (int): Unix time in seconds.
            url (None | str): A signed link to the audio that needs no API key and serves `Range` requests (seekable in an
                `<audio>` element); valid 10 minutes, then 403. Null in events: retrieve the recording for a fresh link.
            url_expires_at (int | None): When `url` stops working.
     """

    id: str
    object_: Literal['recording']
    livemode: bool
    call_id: str
    duration_ms: int
    channels: int
    content_type: RecordingContentType
    size_bytes: int
    created: int
    url: None | str
    url_expires_at: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        call_id = self.call_id

        duration_ms = self.duration_ms

        channels = self.channels

        content_type = self.content_type.value

        size_bytes = self.size_bytes

        created = self.created

        url: None | str
        url = self.url

        url_expires_at: int | None
        url_expires_at = self.url_expires_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "call_id": call_id,
            "duration_ms": duration_ms,
            "channels": channels,
            "content_type": content_type,
            "size_bytes": size_bytes,
            "created": created,
            "url": url,
            "url_expires_at": url_expires_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['recording'] , d.pop("object"))
        if object_ != 'recording':
            raise ValueError(f"object must match const 'recording', got '{object_}'")

        livemode = d.pop("livemode")

        call_id = d.pop("call_id")

        duration_ms = d.pop("duration_ms")

        channels = d.pop("channels")

        content_type = RecordingContentType(d.pop("content_type"))




        size_bytes = d.pop("size_bytes")

        created = d.pop("created")

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))


        def _parse_url_expires_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        url_expires_at = _parse_url_expires_at(d.pop("url_expires_at"))


        recording = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            call_id=call_id,
            duration_ms=duration_ms,
            channels=channels,
            content_type=content_type,
            size_bytes=size_bytes,
            created=created,
            url=url,
            url_expires_at=url_expires_at,
        )


        recording.additional_properties = d
        return recording

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
