"""The ``momentum-planner`` command (``[project.scripts]`` in pyproject.toml).

The server is :mod:`momentum_plan.planner`, on the official MCP Python SDK, which is the ``mcp``
extra: without it the command says how to install it (exit status 1) instead of a traceback.
"""

from __future__ import annotations

import sys

# The top-level modules the server imports from the ``mcp`` extra (the SDK and what it brings).
EXTRA_MODULES = ("mcp", "mcp_types", "pydantic", "typing_extensions")

MISSING_EXTRA = (
    "momentum-planner: the MCP server needs the MCP Python SDK (missing module {name!r}); "
    "install it with: pip install 'momentum-plan[mcp]'"
)


def main() -> None:
    """Runs :func:`momentum_plan.planner.main`; exits 1 with an install hint when the ``mcp``
    extra is missing."""
    try:
        from momentum_plan.planner import main as serve
    except ModuleNotFoundError as e:
        top = (e.name or "").split(".")[0]
        if top in EXTRA_MODULES:
            sys.exit(MISSING_EXTRA.format(name=top))
        raise
    serve()
