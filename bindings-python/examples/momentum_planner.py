"""The example MCP server as a script: ``python momentum_planner.py`` is ``momentum-planner``.

The server ships inside the package, as :mod:`momentum_plan.planner` (``pip install
"momentum-plan[mcp]"`` installs the ``momentum-planner`` command); this file only re-exports it,
so there is one copy of the code. See that module for the catalog, the flags and the environment.
"""

from momentum_plan.planner import PlannerServer, PlanStore, build_server, main

__all__ = ["PlanStore", "PlannerServer", "build_server", "main"]

if __name__ == "__main__":
    main()
