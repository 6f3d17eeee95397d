"""The ``momentum-planner`` command line (momentum_plan._planner_cli.parse_args, re-exported as
momentum_plan.planner.parse_args) and its entry point (momentum_plan._planner_cli): flags, the environment they override, usage errors, and the hint
when the ``mcp`` extra is missing. The server itself runs in test_server.py and tests/package."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from momentum_plan import _planner_cli, planner


def test_defaults_are_stdio_and_no_store(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("MCP_TRANSPORT", "MCP_PORT", "PLAN_STORE"):
        monkeypatch.delenv(var, raising=False)
    args = planner.parse_args([])
    assert (args.http, args.store) == (None, None)


def test_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MCP_PORT", raising=False)
    assert planner.parse_args(["--http", "8123", "--store", "/p"]).http == 8123
    assert planner.parse_args(["--store", "/p"]).store == Path("/p")
    assert planner.parse_args(["--http"]).http == 8000
    monkeypatch.setenv("MCP_PORT", "9001")
    assert planner.parse_args(["--http"]).http == 9001


def test_environment_gives_the_defaults_and_flags_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_TRANSPORT", "streamable-http")
    monkeypatch.setenv("MCP_PORT", "8555")
    assert planner.parse_args([]).http == 8555
    assert planner.parse_args(["--http", "8556"]).http == 8556
    monkeypatch.setenv("MCP_TRANSPORT", "stdio")
    assert planner.parse_args([]).http is None


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        (["--http", "0"], None, "--http: 0 is not a TCP port (1-65535)"),
        (["--http", "70000"], None, "--http: 70000 is not a TCP port (1-65535)"),
        (["--http", "eighty"], None, "argument --http: invalid int value: 'eighty'"),
        (["--bogus"], None, "unrecognized arguments: --bogus"),
        ([], "carrier-pigeon", "MCP_TRANSPORT must be stdio or streamable-http, not 'carrier-pigeon'"),
    ],
)
def test_usage_errors_exit_2(
    argv: list[str], env: str | None, message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("MCP_TRANSPORT", raising=False)
    if env is not None:
        monkeypatch.setenv("MCP_TRANSPORT", env)
    with pytest.raises(SystemExit) as e:
        planner.parse_args(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: momentum-planner") and message in err, err


def test_missing_extra_says_how_to_install(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # As if the SDK were not installed: importing any of it fails with ModuleNotFoundError. Exit
    # status 2, as the Node server's without its SDK (issue 29, outside-try finding 10).
    for name in [m for m in sys.modules if m == "mcp" or m.startswith("mcp.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "momentum_plan.planner")
    monkeypatch.setattr(sys, "argv", ["momentum-planner"])
    with pytest.raises(SystemExit) as e:
        _planner_cli.main()
    assert e.value.code == 2
    assert capsys.readouterr().err == (
        "momentum-planner: the MCP server needs the MCP Python SDK (missing module 'mcp'); "
        "install it with: pip install 'momentum-plan[mcp]'\n"
    )


def test_help_answers_without_importing_the_sdk() -> None:
    """`momentum-planner --help` (and --version) parse before the SDK is imported: the help is
    printed and no `mcp` module is loaded (it takes about two seconds to import)."""
    probe = (
        "import json, sys\n"
        "sys.argv = ['momentum-planner', sys.argv[1]]\n"
        "from momentum_plan import _planner_cli\n"
        "try:\n"
        "    _planner_cli.main()\n"
        "except SystemExit as e:\n"
        "    code = e.code\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types', 'pydantic'))\n"
        "print(json.dumps({'code': code, 'loaded': loaded}), file=sys.stderr)\n"
    )
    for flag, words in (("--help", "usage: momentum-planner"), ("--version", "momentum-planner ")):
        p = subprocess.run([sys.executable, "-c", probe, flag], capture_output=True, text=True, timeout=60)
        assert words in p.stdout, p
        assert json.loads(p.stderr.strip().splitlines()[-1]) == {"code": 0, "loaded": []}, p.stderr
    # The installed command prints the same help.
    command = Path(sys.executable).with_name("momentum-planner")
    if command.exists():
        p = subprocess.run([str(command), "--help"], capture_output=True, text=True, timeout=60)
        assert p.returncode == 0 and p.stdout.startswith("usage: momentum-planner") and "--store DIR" in p.stdout


def test_the_store_is_created_at_start_private_and_an_existing_one_kept(tmp_path: Path) -> None:
    """`momentum-planner --store DIR` creates a missing DIR (and its parents) with mode 0700 when
    it starts, as the sandboxed server does; an existing store keeps its mode; a store that cannot
    be created is a one-line error, not a traceback. The server reads stdin: closed at once, it
    stops after the store is made."""
    planner_bin = str(Path(sys.executable).parent / "momentum-planner")
    fresh = tmp_path / "home" / "plans"
    run = subprocess.run(
        [planner_bin, "--store", str(fresh)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
    )
    assert fresh.is_dir(), run.stderr
    assert fresh.stat().st_mode & 0o777 == 0o700
    existing = tmp_path / "shared"
    existing.mkdir()
    existing.chmod(0o755)
    subprocess.run(
        [planner_bin, "--store", str(existing)],
        stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
    )
    assert existing.stat().st_mode & 0o777 == 0o755
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    bad = subprocess.run(
        [planner_bin, "--store", str(blocker / "plans")],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
    )
    assert bad.returncode == 1
    assert bad.stderr.startswith(f"momentum-planner: cannot create the plan store {blocker / 'plans'}: "), bad.stderr
    assert "Traceback" not in bad.stderr
