from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="CreateTestSuiteRunBody")



@_attrs_define
class CreateTestSuiteRunBody:
    """ 
        Attributes:
            version (int | Unset): The agent version to run (404 naming `version` when it does not exist); default: the
                agent's current one.
     """

    version: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version", UNSET)

        create_test_suite_run_body = cls(
            version=version,
        )

        return create_test_suite_run_body

