"""A small program using momentum_plan as an MCP server would; checked by ``mypy --strict``
(bindings-python/test.sh) and run by the tests."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List, Optional, cast

import momentum_plan
from momentum_plan import Applicability, CalendarCommitments, CalendarExport, CalendarWarning, CategoryId, Commitment, CheckName, Contract, Fix, Issue, IssueCode, Repair, RepairStop, Verdict, Weekday


def summarize(verdict: Verdict) -> List[str]:
    """One line per issue: ``code path: message``."""
    issues: List[Issue] = verdict["errors"] + verdict["warnings"]
    codes: List[IssueCode] = [i["code"] for i in issues]
    return [f"{c} {i['path']}: {i['message']}" for c, i in zip(codes, issues)]


def check(plan: Dict[str, Any] | str, request: Dict[str, Any]) -> bool:
    verdict = momentum_plan.validate_plan(plan, request)
    ran: List[CheckName] = verdict["checks"]
    valid: bool = verdict["valid"]
    return valid and len(ran) == 8


def limits() -> int:
    contract: Contract = momentum_plan.get_plan_contract()
    payload: int = contract["limits"]["payloadBytes"]
    names: List[str] = [c["id"] for c in contract["categories"]]
    return payload + len(names) + contract["contractVersion"]


def fix_then_report(plan: Dict[str, Any] | str, request: Dict[str, Any]) -> Optional[str]:
    """Let repair apply the safe fixes; the repaired text when it is valid, else ``None``."""
    repaired: Repair = momentum_plan.repair_plan(plan, request)
    if repaired["requestAtFault"]:
        return None  # no plan can satisfy this request
    left: List[Fix] = repaired["offered"]
    how: List[Applicability] = [f["applicability"] for f in left]
    stopped: RepairStop = repaired["stopped"]
    ops: List[str] = [op["op"] for op in repaired["patch"]]
    print(len(how), stopped, ops, repaired["rounds"] + len(repaired["revealed"]))
    return repaired["plan"] if repaired["verdict"]["valid"] else None


def calendar_for(plan: Dict[str, Any], request: Dict[str, Any]) -> Optional[str]:
    """The plan's calendar text, or ``None`` with its errors printed (issue 32)."""
    result = momentum_plan.plan_to_icalendar(plan, request, "20261207T120000Z")
    if "text" not in result:
        print(summarize(result))
        return None
    export = cast(CalendarExport, result)
    warnings: List[CalendarWarning] = export["warnings"]
    print([w["date"] for w in warnings])
    return export["text"]


def commitments_of(ics: str) -> List[Commitment]:
    week: CalendarCommitments = momentum_plan.commitments_from_icalendar(ics, "2026-10-05", "Europe/Zurich")
    days: List[Weekday] = [d for c in week["commitments"] for d in c["days"]]
    print(len(days), [s["why"] for s in week["skipped"]])
    return week["commitments"]


def schema_for(request: Dict[str, Any]) -> Dict[str, Any]:
    strict = momentum_plan.plan_schema(request, "strict")
    return momentum_plan.plan_schema(json.dumps(request)) if not strict else strict


def main() -> None:
    request = {"requestId": "r1", "kind": "routine"}
    text = json.dumps({"format": momentum_plan.FORMAT, "contractVersion": momentum_plan.CONTRACT_VERSION})
    print(summarize(momentum_plan.validate_plan(text, request)))
    print(summarize(momentum_plan.validate_plan(text.encode(), json.dumps(request))))
    print(check(json.loads(text), request), limits(), momentum_plan.__version__)
    print(fix_then_report(text, request), len(schema_for(request)))
    print(momentum_plan.repair_plan(text.encode(), request, unsafe=True)["applied"])


if TYPE_CHECKING:
    # The stubs give exact types (not Any); assert_type fails mypy when they drift.
    from typing import assert_type

    assert_type(momentum_plan.validate_plan({}, {}), Verdict)
    assert_type(momentum_plan.validate_plan("{}", "{}"), Verdict)
    assert_type(momentum_plan.validate_plan(b"{}", b"{}"), Verdict)
    assert_type(momentum_plan.get_plan_contract(), Contract)
    assert_type(momentum_plan.validate_plan({}, {})["errors"][0]["path"], str)
    # Codes, checks, categories and weekdays are the core's registries, not any string: with
    # --strict (warn_unused_ignores) each ignore below fails mypy if the line type-checks.
    assert_type(momentum_plan.validate_plan({}, {})["errors"][0]["code"], IssueCode)
    assert_type(momentum_plan.repair_plan({}, {})["offered"][0]["code"], IssueCode)
    assert_type(momentum_plan.get_plan_contract()["categories"][0]["id"], CategoryId)
    assert_type(momentum_plan.get_plan_contract()["weekdays"][0], Weekday)
    not_a_code: IssueCode = "overlapping"  # type: ignore[assignment]
    not_a_check: CheckName = "fields-and-more"  # type: ignore[assignment]
    not_a_category: CategoryId = "food"  # type: ignore[assignment]
    not_a_day: Weekday = "monday"  # type: ignore[assignment]
    assert_type(momentum_plan.get_plan_contract()["limits"]["blocksPerDay"], int)
    assert_type(momentum_plan.repair_plan({}, {}), Repair)
    assert_type(momentum_plan.repair_plan("{}", b"{}", unsafe=True)["applied"][0], Fix)
    assert_type(momentum_plan.repair_plan({}, {})["verdict"], Verdict)
    assert_type(momentum_plan.repair_plan({}, {})["stopped"], RepairStop)
    assert_type(momentum_plan.plan_schema({}, "strict"), Dict[str, Any])
    assert_type(momentum_plan.FORMAT, str)
    assert_type(momentum_plan.CONTRACT_VERSION, int)


if __name__ == "__main__":
    main()
