"""pytest fixtures for the end-to-end tests of the sandboxed MCP server.

Every test talks to the real ``momentum-plan-mcp.wasm`` through the real ``momentum-plan-sandbox``
(paths: see ``sandbox_env.py``). One compile cache is shared by the whole session so only the
first start compiles.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sandbox_env  # noqa: E402


def pytest_sessionstart(session: pytest.Session) -> None:
    missing = [str(p) for p in (sandbox_env.RUNNER, sandbox_env.WASM) if not p.is_file()]
    if missing:
        raise pytest.UsageError(
            "missing build outputs: " + ", ".join(missing) + " (run mcp-wasi/sandbox/test.sh, which builds them)"
        )


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A compile cache shared by the session."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """An empty plan store, inside a parent directory that nothing else writes to."""
    d = tmp_path / "outer" / "plans"
    d.mkdir(parents=True)
    return d
