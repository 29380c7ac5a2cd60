from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.analysis_status import AnalysisStatus
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.analysis_error import AnalysisError
  from ..models.analysis_plan import AnalysisPlan
  from ..models.analysis_success import AnalysisSuccess
  from ..models.cost import Cost
  from ..models.redaction import Redaction





T = TypeVar("T", bound="Analysis")



@_attrs_define
class Analysis:
    """ What the model made of a finished call or conversation: a summary, structured data valid against the plan's schema,
    a success verdict.

        Attributes:
            id (str):
            object_ (Literal['analysis']):
            livemode (bool):
            call_id (None | str):
            conversation_id (None | str):
            status (AnalysisStatus): `failed`: no valid answer after one retry with the validation errors (see `error`).
            summary (None | str):
            structured_data (Any): Valid against the plan's `structured_data.schema`; null when not asked.
            success (AnalysisSuccess | None):
            model (None | str):
            plan (AnalysisPlan):
            form_id (None | str): A call analysed for a form (`form_id`): the form filled.
            agent_id (None | str): The agent of the call or conversation analysed.
            agent_version (int | None): The version of the agent the call or conversation ran; null when unknown.
            cost (Cost | None): What the analysis's model requests cost, at the price table of when each answered (README
                "Costs"); null when none was recorded.
            cost_incomplete (bool): True when its model is missing from the price table: `cost.model_micros` is null.
            created (int): Unix time in seconds.
            redaction (Redaction | Unset): What was replaced before the text was stored (the organization's
                `redaction.enabled`): counts by kind of the `[card]`, `[ssn]`, `[email]` and `[phone]` placeholders. Absent when
                nothing was.
            error (AnalysisError | Unset):
     """

    id: str
    object_: Literal['analysis']
    livemode: bool
    call_id: None | str
    conversation_id: None | str
    status: AnalysisStatus
    summary: None | str
    structured_data: Any
    success: AnalysisSuccess | None
    model: None | str
    plan: AnalysisPlan
    form_id: None | str
    agent_id: None | str
    agent_version: int | None
    cost: Cost | None
    cost_incomplete: bool
    created: int
    redaction: Redaction | Unset = UNSET
    error: AnalysisError | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.analysis_error import AnalysisError # noqa: PLC0415
        from ..models.analysis_plan import AnalysisPlan # noqa: PLC0415
        from ..models.analysis_success import AnalysisSuccess # noqa: PLC0415
        from ..models.cost import Cost # noqa: PLC0415
        from ..models.redaction import Redaction # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        call_id: None | str
        call_id = self.call_id

        conversation_id: None | str
        conversation_id = self.conversation_id

        status = self.status.value

        summary: None | str
        summary = self.summary

        structured_data = self.structured_data

        success: dict[str, Any] | None
        if isinstance(self.success, AnalysisSuccess):
            success = self.success.to_dict()
        else:
            success = self.success

        model: None | str
        model = self.model

        plan = self.plan.to_dict()

        form_id: None | str
        form_id = self.form_id

        agent_id: None | str
        agent_id = self.agent_id

        agent_version: int | None
        agent_version = self.agent_version

        cost: dict[str, Any] | None
        if isinstance(self.cost, Cost):
            cost = self.cost.to_dict()
        else:
            cost = self.cost

        cost_incomplete = self.cost_incomplete

        created = self.created

        redaction: dict[str, Any] | Unset = UNSET
        if not isinstance(self.redaction, Unset):
            redaction = self.redaction.to_dict()

        error: dict[str, Any] | Unset = UNSET
        if not isinstance(self.error, Unset):
            error = self.error.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "call_id": call_id,
            "conversation_id": conversation_id,
            "status": status,
            "summary": summary,
            "structured_data": structured_data,
            "success": success,
            "model": model,
            "plan": plan,
            "form_id": form_id,
            "agent_id": agent_id,
            "agent_version": agent_version,
            "cost": cost,
            "cost_incomplete": cost_incomplete,
            "created": created,
        })
        if redaction is not UNSET:
            field_dict["redaction"] = redaction
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.analysis_error import AnalysisError # noqa: PLC0415
        from ..models.analysis_plan import AnalysisPlan # noqa: PLC0415
        from ..models.analysis_success import AnalysisSuccess # noqa: PLC0415
        from ..models.cost import Cost # noqa: PLC0415
        from ..models.redaction import Redaction # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['analysis'] , d.pop("object"))
        if object_ != 'analysis':
            raise ValueError(f"object must match const 'analysis', got '{object_}'")

        livemode = d.pop("livemode")

        def _parse_call_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        call_id = _parse_call_id(d.pop("call_id"))


        def _parse_conversation_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        conversation_id = _parse_conversation_id(d.pop("conversation_id"))


        status = AnalysisStatus(d.pop("status"))




        def _parse_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        summary = _parse_summary(d.pop("summary"))


        structured_data = d.pop("structured_data")

        def _parse_success(data: object) -> AnalysisSuccess | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                success_type_0 = AnalysisSuccess.from_dict(data)



                return success_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AnalysisSuccess | None, data)

        success = _parse_success(d.pop("success"))


        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))


        plan = AnalysisPlan.from_dict(d.pop("plan"))




        def _parse_form_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        form_id = _parse_form_id(d.pop("form_id"))


        def _parse_agent_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_id = _parse_agent_id(d.pop("agent_id"))


        def _parse_agent_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        agent_version = _parse_agent_version(d.pop("agent_version"))


        def _parse_cost(data: object) -> Cost | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                cost_type_0 = Cost.from_dict(data)



                return cost_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Cost | None, data)

        cost = _parse_cost(d.pop("cost"))


        cost_incomplete = d.pop("cost_incomplete")

        created = d.pop("created")

        _redaction = d.pop("redaction", UNSET)
        redaction: Redaction | Unset
        if isinstance(_redaction,  Unset):
            redaction = UNSET
        else:
            redaction = Redaction.from_dict(_redaction)




        _error = d.pop("error", UNSET)
        error: AnalysisError | Unset
        if isinstance(_error,  Unset):
            error = UNSET
        else:
            error = AnalysisError.from_dict(_error)




        analysis = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            call_id=call_id,
            conversation_id=conversation_id,
            status=status,
            summary=summary,
            structured_data=structured_data,
            success=success,
            model=model,
            plan=plan,
            form_id=form_id,
            agent_id=agent_id,
            agent_version=agent_version,
            cost=cost,
            cost_incomplete=cost_incomplete,
            created=created,
            redaction=redaction,
            error=error,
        )


        analysis.additional_properties = d
        return analysis

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
