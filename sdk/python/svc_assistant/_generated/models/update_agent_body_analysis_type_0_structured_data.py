from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_agent_body_analysis_type_0_structured_data_schema import UpdateAgentBodyAnalysisType0StructuredDataSchema





T = TypeVar("T", bound="UpdateAgentBodyAnalysisType0StructuredData")



@_attrs_define
class UpdateAgentBodyAnalysisType0StructuredData:
    """ Values extracted from the transcript; the answer is validated against `schema` before it's kept.

        Attributes:
            schema (UpdateAgentBodyAnalysisType0StructuredDataSchema): A JSON Schema of an object (`type: "object"`; draft
                2020-12, or draft-07 when `$schema` names it), at most 32 KB of JSON.
            prompt (str | Unset):
     """

    schema: UpdateAgentBodyAnalysisType0StructuredDataSchema
    prompt: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_agent_body_analysis_type_0_structured_data_schema import UpdateAgentBodyAnalysisType0StructuredDataSchema # noqa: PLC0415
        schema = self.schema.to_dict()

        prompt = self.prompt


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "schema": schema,
        })
        if prompt is not UNSET:
            field_dict["prompt"] = prompt

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_agent_body_analysis_type_0_structured_data_schema import UpdateAgentBodyAnalysisType0StructuredDataSchema # noqa: PLC0415
        d = dict(src_dict)
        schema = UpdateAgentBodyAnalysisType0StructuredDataSchema.from_dict(d.pop("schema"))




        prompt = d.pop("prompt", UNSET)

        update_agent_body_analysis_type_0_structured_data = cls(
            schema=schema,
            prompt=prompt,
        )

        return update_agent_body_analysis_type_0_structured_data

