from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.transfer_call_body_mode import TransferCallBodyMode
from ..types import UNSET, Unset






T = TypeVar("T", bound="TransferCallBody")



@_attrs_define
class TransferCallBody:
    """ 
        Attributes:
            to (str):
            mode (TransferCallBodyMode | Unset): `cold` (default): Twilio `<Dial>` hands the line over and the assistant is
                gone. `warm`: the caller waits on hold in a conference while `to` is dialed; when the person answers they hear
                `summary`, then are joined with the caller and the assistant leaves; busy, no answer within
                `transfer_timeout_seconds` or a hang-up during the summary bring the caller back to the assistant
                (`call.transfer_failed`).
            summary (str | Unset): Warm: what the person hears before joining; absent: the model summarizes the transcript.
            transfer_timeout_seconds (int | Unset): Warm: how long the person may take to answer, seconds (default 30).
     """

    to: str
    mode: TransferCallBodyMode | Unset = UNSET
    summary: str | Unset = UNSET
    transfer_timeout_seconds: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        to = self.to

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value


        summary = self.summary

        transfer_timeout_seconds = self.transfer_timeout_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "to": to,
        })
        if mode is not UNSET:
            field_dict["mode"] = mode
        if summary is not UNSET:
            field_dict["summary"] = summary
        if transfer_timeout_seconds is not UNSET:
            field_dict["transfer_timeout_seconds"] = transfer_timeout_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        to = d.pop("to")

        _mode = d.pop("mode", UNSET)
        mode: TransferCallBodyMode | Unset
        if isinstance(_mode,  Unset):
            mode = UNSET
        else:
            mode = TransferCallBodyMode(_mode)




        summary = d.pop("summary", UNSET)

        transfer_timeout_seconds = d.pop("transfer_timeout_seconds", UNSET)

        transfer_call_body = cls(
            to=to,
            mode=mode,
            summary=summary,
            transfer_timeout_seconds=transfer_timeout_seconds,
        )

        return transfer_call_body

