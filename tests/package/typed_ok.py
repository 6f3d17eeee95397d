"""Type-checked with ``mypy --strict`` against the installed wheel: must pass."""

from momentum_plan import Issue, Verdict, get_plan_contract, validate_plan

verdict: Verdict = validate_plan('{"format": 1}', {"requestId": "r1", "kind": "routine"})
valid: bool = verdict["valid"]
first: Issue = verdict["errors"][0]
path: str = first["path"]
version: int = get_plan_contract()["contractVersion"]
print(valid, path, version)
