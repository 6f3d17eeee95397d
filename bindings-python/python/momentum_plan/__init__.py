"""Validate ``daily-momentum-ai-plan`` plans natively.

The momentum-plan validator (a Rust core) for Python: one deterministic function that judges a
plan an AI model drafted against the request it answers, and says where each error is (a
JSONPath) and what to change, so the model can fix its draft.

>>> import momentum_plan
>>> verdict = momentum_plan.validate_plan('{"format": 1}', {"requestId": "r1", "kind": "routine"})
>>> verdict["valid"], verdict["errors"][0]["code"], verdict["errors"][0]["path"]
(False, 'format', '$.format')

- :func:`validate_plan` returns the verdict (:class:`Verdict`).
- :func:`repair_plan` applies the fixes that are safe to apply and says what it did and what is
  left (:class:`Repair`).
- :func:`plan_schema` returns the JSON Schema of the plan a request asks for.
- :class:`PlanStream` validates a plan as it streams in (validator.md §10): each issue as soon as
  no continuation can remove it; :func:`stream_plan` and :func:`astream_plan` read a model's
  chunks (an iterable or an async iterable of ``str`` or ``bytes``) through one.
- :func:`plan_to_icalendar` writes a valid plan as an iCalendar file (RFC 5545), and
  :func:`commitments_from_icalendar` reads a week of a person's calendar as the request's
  commitments (issue 32).
- :func:`get_plan_contract` returns the contract a model needs before drafting (:class:`Contract`).
- :data:`FORMAT`, :data:`CONTRACT_VERSION` and :data:`__version__` are constants.

The types (:class:`Verdict`, :class:`Issue`, :data:`IssueCode`, :data:`CheckName`,
:class:`Repair`, :class:`Fix`, :class:`Contract`, ...) are ``TypedDict`` s and ``Literal`` unions
generated into ``momentum_plan._types`` from the core's registries (``cargo run -p
momentum-plan-codegen``): the verdict, the repair and the contract are plain ``dict`` s (ready to
return from an MCP tool as structured content), typed for checkers.
"""

from __future__ import annotations

from ._native import (
    CONTRACT_VERSION,
    FORMAT,
    PlanStream,
    __version__,
    commitments_from_icalendar,
    get_plan_contract,
    is_warning,
    plan_schema,
    plan_to_icalendar,
    repair_plan,
    validate_plan,
)
from ._stream import astream_plan, stream_plan
from ._types import *  # noqa: F403  (the generated types; listed in _types.__all__)

# The native functions and constants, then every generated type (`_types.__all__`; the generator's
# tests check that this list names them all).
__all__ = [
    "CONTRACT_VERSION",
    "FORMAT",
    "PlanStream",
    "__version__",
    "astream_plan",
    "stream_plan",
    "get_plan_contract",
    "commitments_from_icalendar",
    "is_warning",
    "plan_schema",
    "plan_to_icalendar",
    "repair_plan",
    "validate_plan",
    "Applicability",
    "CalendarCommitments",
    "CalendarExport",
    "CalendarWarning",
    "Category",
    "CategoryId",
    "CheckName",
    "Commitment",
    "Contract",
    "Fix",
    "Issue",
    "IssueCode",
    "JsonValue",
    "Limits",
    "PatchAdd",
    "PatchMove",
    "PatchOperation",
    "PatchRemove",
    "PatchReplace",
    "PatchTest",
    "PlanSchema",
    "Repair",
    "RepairStop",
    "SchemaVariant",
    "SkippedEvent",
    "Verdict",
    "Weekday",
]
