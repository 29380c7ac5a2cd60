from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.agent_version_config_analysis_structured_data_schema import AgentVersionConfigAnalysisStructuredDataSchema





T = TypeVar("T", bound="AgentVersionConfigAnalysisStructuredData")



@_attrs_define
class AgentVersionConfigAnalysisStructuredData:
    """ 
        Attributes:
            schema (AgentVersionConfigAnalysisStructuredDataSchema): A JSON Schema of an object (`type: "object"`; draft
                2020-12, or draft-07 when `$schema` names it), at most 32 KB of JSON.
            prompt (str | Unset):
     """

    schema: AgentVersionConfigAnalysisStructuredDataSchema
    prompt: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_version_config_analysis_structured_data_schema import AgentVersionConfigAnalysisStructuredDataSchema # noqa: PLC0415
        schema = self.schema.to_dict()

        prompt = self.prompt


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "schema": schema,
        })
        if prompt is not UNSET:
            field_dict["prompt"] = prompt

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_version_config_analysis_structured_data_schema import AgentVersionConfigAnalysisStructuredDataSchema # noqa: PLC0415
        d = dict(src_dict)
        schema = AgentVersionConfigAnalysisStructuredDataSchema.from_dict(d.pop("schema"))




        prompt = d.pop("prompt", UNSET)

        agent_version_config_analysis_structured_data = cls(
            schema=schema,
            prompt=prompt,
        )


        agent_version_config_analysis_structured_data.additional_properties = d
        return agent_version_config_analysis_structured_data

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
