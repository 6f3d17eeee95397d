"""Type-checked with ``mypy --strict`` against the installed wheel: must fail (the types are real)."""

from momentum_plan import validate_plan

verdict = validate_plan("{}", {})
count: int = verdict["valid"] + "errors"
missing = verdict["no-such-key"]
