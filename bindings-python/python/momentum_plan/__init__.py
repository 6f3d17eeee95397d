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
- :func:`get_plan_contract` returns the contract a model needs before drafting (:class:`Contract`).
- :data:`FORMAT`, :data:`CONTRACT_VERSION` and :data:`__version__` are constants.

The types below are ``TypedDict`` s: the verdict, the repair and the contract are plain ``dict`` s (ready to
return from an MCP tool as structured content), typed for checkers.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Dict, List, Literal, Union

from ._native import (
    CONTRACT_VERSION,
    FORMAT,
    __version__,
    get_plan_contract,
    plan_schema,
    repair_plan,
    validate_plan,
)

if sys.version_info >= (3, 12):
    from typing import TypedDict
else:  # pydantic (e.g. the MCP SDK's output schemas) needs typing_extensions' TypedDict before 3.12
    from typing_extensions import TypedDict

__all__ = [
    "CONTRACT_VERSION",
    "FORMAT",
    "Applicability",
    "Category",
    "CheckName",
    "Contract",
    "Fix",
    "Issue",
    "Limits",
    "Repair",
    "SchemaVariant",
    "Stopped",
    "Verdict",
    "__version__",
    "get_plan_contract",
    "plan_schema",
    "repair_plan",
    "validate_plan",
]

if TYPE_CHECKING:  # typing.TypeAlias is new in 3.10; annotations are not evaluated at run time.
    from typing import TypeAlias

# Written as a Union of one-value Literals (the same type as one Literal of eight values) so that
# the run-time object is a Union, which is what `mypy.stubtest` expects of this alias.
CheckName: TypeAlias = Union[
    Literal["json"],
    Literal["size"],
    Literal["envelope"],
    Literal["request"],
    Literal["fields"],
    Literal["day-shape"],
    Literal["commitments"],
    Literal["feasibility"],
]
"""The name of one of the eight checks, in the order they run (validator.md §5)."""


class Issue(TypedDict):
    """One error or warning (validator.md §4)."""

    code: str
    """The stable issue code, e.g. ``"overlap"`` (errors) or ``"overnight"`` (the warning)."""
    path: str
    """Where: a JSONPath from the plan's root ``$``, e.g. ``"$.routine.blocks[2].start"``."""
    message: str
    """What is wrong and what to change, in English, for the model that drafted the plan."""


class Verdict(TypedDict):
    """The verdict on a plan (validator.md §4); keys in this order."""

    valid: bool
    """True exactly when ``errors`` is empty."""
    errors: List[Issue]
    """The errors, in the order of validator.md §5."""
    warnings: List[Issue]
    """The warnings (``overnight``)."""
    checks: List[CheckName]
    """The checks that ran, in order: all eight for an object plan, else only ``json``."""


Applicability: TypeAlias = Union[Literal["safe"], Literal["unsafe"], Literal["placeholder"]]
"""How sure a fix is (validator.md §9): ``safe`` (applied by default: only how a value is written,
or a value the validator already knows), ``unsafe`` (changes meaning; applied when asked),
``placeholder`` (needs a value from the person or the model; never applied)."""

Stopped: TypeAlias = Union[
    Literal["fixedPoint"],
    Literal["roundLimit"],
    Literal["repeatedState"],
    Literal["notAnObject"],
]
"""Why the repair loop ended: no fix left to apply, the round bound, a plan seen before, or a plan
that is not a JSON object (nothing a patch can fix)."""

SchemaVariant: TypeAlias = Union[Literal["validation"], Literal["strict"]]
"""The plan schema's variant: ``validation`` (accepts every plan the validator accepts) or
``strict`` (the subset the major providers' structured outputs accept)."""


class Fix(TypedDict):
    """One fix for one issue (validator.md §9); keys in this order."""

    code: str
    """The code of the issue the fix answers."""
    path: str
    """The JSONPath of that issue."""
    applicability: Applicability
    """``safe``, ``unsafe`` or ``placeholder``."""
    description: str
    """What the fix does, written for the model, e.g. ``Write start as "07:00".``"""


Repair = TypedDict(
    "Repair",
    {
        "plan": str,
        "patch": List[Dict[str, Any]],
        "applied": List[Fix],
        "offered": List[Fix],
        "verdict": Verdict,
        "rounds": int,
        "stopped": Stopped,
        "revealed": List[Issue],
        "requestAtFault": List[str],
    },
)
"""The result of :func:`repair_plan` (validator.md §9), keys in this order: ``plan`` (the repaired
plan's JSON text), ``patch`` (the RFC 6902 patch from the input to it, every replaced or removed
value guarded by a ``test`` op), ``applied`` and ``offered`` (fixes), ``verdict`` (of the repaired
plan), ``rounds``, ``stopped``, ``revealed`` (errors that only became checkable after a fix) and
``requestAtFault`` (why no plan can satisfy the request; empty when it can)."""


class Category(TypedDict):
    """One of the nine categories a block or activity may have."""

    id: str
    """The id written in plans, e.g. ``"body"``."""
    means: str
    """What the category covers, e.g. ``"exercise, movement, physical care"``."""


# The limits' key names are camelCase JSON names, hence the functional form.
Limits = TypedDict(
    "Limits",
    {
        "payloadBytes": int,
        "planDays": int,
        "blocksPerDay": int,
        "activitiesPerDay": int,
        "distinctActivities": int,
        "minutesPerActivity": int,
        "minutesPerDay": int,
        "name": int,
        "tagline": int,
        "description": int,
        "activity": int,
        "guidance": int,
    },
)
"""The declared limits (validator.md §2): counts are items, lengths Unicode scalar values, sizes
UTF-8 bytes, times minutes."""

Contract = TypedDict(
    "Contract",
    {
        "format": str,
        "contractVersion": int,
        "categories": List[Category],
        "weekdays": List[str],
        "limits": Limits,
        "rules": List[str],
    },
)
"""The plan contract (validator.md §2), what ``get_plan_contract`` returns; keys in this order."""
