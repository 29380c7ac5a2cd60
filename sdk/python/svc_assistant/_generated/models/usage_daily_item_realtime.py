from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="UsageDailyItemRealtime")



@_attrs_define
class UsageDailyItemRealtime:
    """ 
        Attributes:
            responses (int):
            prompt_tokens (int):
            completion_tokens (int):
            prompt_text_tokens (int):
            prompt_audio_tokens (int):
            prompt_cached_tokens (int):
            completion_text_tokens (int):
            completion_audio_tokens (int):
     """

    responses: int
    prompt_tokens: int
    completion_tokens: int
    prompt_text_tokens: int
    prompt_audio_tokens: int
    prompt_cached_tokens: int
    completion_text_tokens: int
    completion_audio_tokens: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        responses = self.responses

        prompt_tokens = self.prompt_tokens

        completion_tokens = self.completion_tokens

        prompt_text_tokens = self.prompt_text_tokens

        prompt_audio_tokens = self.prompt_audio_tokens

        prompt_cached_tokens = self.prompt_cached_tokens

        completion_text_tokens = self.completion_text_tokens

        completion_audio_tokens = self.completion_audio_tokens


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "responses": responses,
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "prompt_text_tokens": prompt_text_tokens,
            "prompt_audio_tokens": prompt_audio_tokens,
            "prompt_cached_tokens": prompt_cached_tokens,
            "completion_text_tokens": completion_text_tokens,
            "completion_audio_tokens": completion_audio_tokens,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        responses = d.pop("responses")

        prompt_tokens = d.pop("prompt_tokens")

        completion_tokens = d.pop("completion_tokens")

        prompt_text_tokens = d.pop("prompt_text_tokens")

        prompt_audio_tokens = d.pop("prompt_audio_tokens")

        prompt_cached_tokens = d.pop("prompt_cached_tokens")

        completion_text_tokens = d.pop("completion_text_tokens")

        completion_audio_tokens = d.pop("completion_audio_tokens")

        usage_daily_item_realtime = cls(
            responses=responses,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            prompt_text_tokens=prompt_text_tokens,
            prompt_audio_tokens=prompt_audio_tokens,
            prompt_cached_tokens=prompt_cached_tokens,
            completion_text_tokens=completion_text_tokens,
            completion_audio_tokens=completion_audio_tokens,
        )


        usage_daily_item_realtime.additional_properties = d
        return usage_daily_item_realtime

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
