"""Type stubs of the native module ``momentum_plan._native`` (import ``momentum_plan`` instead)."""

from collections.abc import Mapping
from typing import Any, Dict, Final, final

from momentum_plan import (
    CalendarCommitments,
    CalendarExport,
    Contract,
    Issue,
    IssueCode,
    Repair,
    SchemaVariant,
    Verdict,
)

__all__ = [
    "validate_plan",
    "repair_plan",
    "plan_schema",
    "plan_to_icalendar",
    "commitments_from_icalendar",
    "PlanStream",
    "is_warning",
    "get_plan_contract",
    "FORMAT",
    "CONTRACT_VERSION",
    "__version__",
]

FORMAT: Final[str]
"""The plan format every plan declares: ``"daily-momentum-ai-plan"``."""
CONTRACT_VERSION: Final[int]
"""The contract version every plan declares: ``1``."""
__version__: Final[str]
"""The package version (the Rust crate's version)."""

def validate_plan(
    plan: Mapping[str, Any] | str | bytes | bytearray | memoryview,
    request: Mapping[str, Any] | str | bytes | bytearray | memoryview,
) -> Verdict:
    """Validate ``plan`` against the ``request`` it answers; return the verdict.

    ``plan`` is a dict or any other ``Mapping``, or its JSON text as ``str`` or as UTF-8 bytes
    (``bytes``, ``bytearray``, a C-contiguous ``memoryview`` of format ``'B'``), validated as text
    (spec §5.1, §5.2). ``request`` is a ``Mapping``, or its JSON text in the same forms. Raises ``TypeError`` (a type JSON has no form for) or
    ``ValueError`` (NaN, infinity, a cycle; in the request also nesting over 512 levels and lone
    surrogates) with the core's text, e.g. ``plan at $.x is a set, which JSON cannot hold``, and
    the attributes ``argument`` (``"plan"``/``"request"``), ``path`` (the JSONPath) and ``kind``
    (``"unsupported"``, ``"nonStringName"``, ``"notFinite"``, ``"cycle"``, ``"tooDeep"``,
    ``"loneSurrogate"``, ``"loneSurrogateInName"``); ``ValueError`` for request text that is not
    JSON (``request is not JSON: ...``, ``kind`` ``None``, ``path`` ``"$"``).
    """

def repair_plan(
    plan: Mapping[str, Any] | str | bytes | bytearray | memoryview,
    request: Mapping[str, Any] | str | bytes | bytearray | memoryview,
    *,
    unsafe: bool = False,
) -> Repair:
    """Apply the fixes the validator proposes (safe ones; unsafe ones too when ``unsafe``),
    validate again, to a fixed point; return the repair (validator.md §9).

    The arguments are read as :func:`validate_plan` reads them, with the same exceptions. A
    request at fault is not an exception: ``requestAtFault`` says why no plan can satisfy it.
    ``unsafe`` must be a ``bool`` (``None`` is as left out): anything else raises ``TypeError``
    (``unsafe is a str; pass True or False``).
    """

def plan_schema(
    request: Mapping[str, Any] | str | bytes | bytearray | memoryview,
    variant: SchemaVariant | str = "validation",
) -> Dict[str, Any]:
    """Return the JSON Schema (2020-12) of the plan that answers ``request`` (validator.md §9).

    ``variant``: ``"validation"`` or ``"strict"``. The request is read as :func:`validate_plan`
    reads it, with the same exceptions. Raises ``ValueError`` with the core's text for an unknown
    variant and for a request no plan can satisfy (that one with ``argument`` ``"request"``,
    ``path`` ``"$"`` and ``kind`` ``None``, as the JS packages' ``Error``).
    """

def is_warning(code: IssueCode | str) -> bool:
    """Return whether an issue with code ``code`` is a warning rather than an error
    (validator.md §4, §5.5: ``overnight``; ``notSaved``), that is, where a verdict lists it: for an
    issue without its verdict, as :meth:`PlanStream.push` returns them (§10). The core's rule;
    ``False`` for a string that is no issue code.
    """

def plan_to_icalendar(
    plan: Mapping[str, Any] | str | bytes | bytearray | memoryview,
    request: Mapping[str, Any] | str | bytes | bytearray | memoryview,
    dtstamp: str,
) -> CalendarExport | Verdict:
    """Return a valid plan as an iCalendar object (RFC 5545; issue 32), or the verdict of a plan
    that is not valid (``valid`` ``False``; tell them apart with ``"text" in result``: checkers
    narrow ``"text" not in result`` to :class:`Verdict`; the other branch needs ``typing.cast``
    to :class:`CalendarExport`, as the TypedDicts are not final).

    ``plan`` and ``request`` are read as :func:`validate_plan` reads them, with the same
    exceptions. ``dtstamp`` is the ``DTSTAMP`` of every component, a UTC date-time
    ``YYYYMMDDTHHMMSSZ`` (the core has no clock). :class:`CalendarExport`'s ``text`` is the
    calendar (CRLF lines, folded at 75 octets): a routine's blocks as weekly events from the
    request's ``startDate`` in its ``timezone`` (floating times without one), a goal plan's
    activities as to-dos; ``warnings`` lists the block starts in a daylight-saving gap or fold.
    Raises ``ValueError`` with the crate's text for a request without a usable ``startDate`` or
    ``timezone`` (``argument`` ``"request"``, ``path`` ``"$.startDate"`` / ``"$.timezone"``) and
    for a malformed ``dtstamp`` (``argument`` ``"dtstamp"``); ``TypeError`` for a ``dtstamp``
    that is not a ``str``.
    """

def commitments_from_icalendar(ics: str, start_date: str, timezone: str) -> CalendarCommitments:
    """Return the commitments of the week from ``start_date`` (``YYYY-MM-DD``) in ``timezone``
    (a tz database name) read from the calendar text ``ics`` (RFC 5545; issue 32), and the
    events of that week left out with why.

    Each commitment is a request's (validator.md §3): paste ``result["commitments"]`` into the
    request. Raises ``ValueError`` with the crate's text for a file it cannot read (attribute
    ``line``: the 1-based line at fault), a file over its caps, or a bad ``start_date`` /
    ``timezone`` (``line`` ``None``); ``TypeError`` for an argument that is not a ``str``.
    """

def get_plan_contract() -> Contract:
    """Return the plan contract as a new dict."""

@final
class PlanStream:
    """A plan validated as it arrives (validator.md §10): ``PlanStream(request)``, then
    :meth:`push` each chunk of the plan's text, then :meth:`finish`.

    ``request``: as :func:`validate_plan` takes it, with the same exceptions.
    """

    def __new__(cls, request: Mapping[str, Any] | str | bytes | bytearray | memoryview) -> PlanStream: ...
    def push(self, chunk: str | bytes | bytearray) -> list[Issue]:
        """Read the next chunk (a ``str``, or UTF-8 ``bytes`` split anywhere) and return the issues
        that became settled with it (no continuation can remove them), worded as the final verdict
        words them. ``TypeError`` for another type; ``ValueError`` for a ``str`` holding a lone
        surrogate, and after :meth:`finish`."""
    def finish(self) -> Verdict:
        """The verdict on all the text pushed: :func:`validate_plan` of it. ``ValueError`` when
        called twice."""
    @property
    def repeated_name(self) -> bool:
        """Whether a member name repeated: nothing settles after that; only :meth:`finish` counts."""
    def __len__(self) -> int:
        """How many bytes have been pushed (0 after :meth:`finish`)."""
