"""The README's host lines on a machine that has never run the project (issue 27 item 1).

Each line a user copies to add the server to a host (``claude mcp add …`` in both READMEs, the
Claude Desktop ``claude_desktop_config.json`` of ``mcp-wasi/README.md``) is read from the README
itself and started as the host would: with a fresh, empty ``HOME``, the arguments as the shell
expands them (``~/plans`` becomes ``$HOME/plans``; the JSON's ``/home/you`` is that ``HOME``), the
runner found where the line says (``momentum-plan-sandbox`` on ``PATH``, or the JSON's
``command``), and no variable of the project set. The official Python SDK client then runs a
session (initialize, tools/list, validate_plan, save_plan); the store the line names did not exist
and must now exist with mode 0700 (spec mcp-server.md "Sandbox and store") and hold the plan.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from sandbox_env import ROOT, RUNNER, core_verdict, example

READMES = [ROOT / "README.md", ROOT / "mcp-wasi" / "README.md"]
CLAUDE_ADD = re.compile(r"claude mcp add momentum-planner -- ((?:~/[^ `]*/)?momentum-plan-sandbox[^`\n]*)")
YOU = "/home/you"


def claude_lines() -> list[str]:
    """The distinct ``claude mcp add`` commands of the READMEs (the part after ``--``)."""
    found = {m.group(1).strip() for readme in READMES for m in CLAUDE_ADD.finditer(readme.read_text(encoding="utf-8"))}
    assert found, "no `claude mcp add momentum-planner -- momentum-plan-sandbox …` line in the READMEs"
    return sorted(found)


def desktop_config() -> dict[str, Any]:
    """The ``momentum-planner`` entry of the Claude Desktop config block in mcp-wasi/README.md."""
    text = (ROOT / "mcp-wasi" / "README.md").read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S) if '"mcpServers"' in b]
    assert len(blocks) == 1, "one claude_desktop_config.json block"
    entry: dict[str, Any] = blocks[0]["mcpServers"]["momentum-planner"]
    return entry


def shell_words(command: str, home: Path) -> list[str]:
    """``command`` split and expanded by bash with ``HOME=home``, as a shell would pass it on."""
    out = subprocess.run(
        ["bash", "-c", f'for w in {command}; do printf "%s\\0" "$w"; done'],
        env={"HOME": str(home), "PATH": os.environ["PATH"]},
        capture_output=True,
        check=True,
        text=True,
    )
    return out.stdout.split("\0")[:-1]


def fresh_home(tmp_path: Path) -> Path:
    home = tmp_path / "home" / "you"
    home.mkdir(parents=True)
    return home


def host_env(home: Path, bin_dir: Path) -> dict[str, str]:
    """What a host passes on: HOME and a PATH with the installed binary, nothing of the project."""
    return {"HOME": str(home), "PATH": f"{bin_dir}{os.pathsep}/usr/bin:/bin"}


def install(bin_dir: Path) -> None:
    """The runner installed as one file, as the README says (a symlink to the build)."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    (bin_dir / "momentum-plan-sandbox").symlink_to(RUNNER)


def session_saves(params: StdioServerParameters, store: Path) -> None:
    """A real session through the official Python SDK client, which must be able to save."""
    plan, request = example("calm-weekday")

    async def go() -> None:
        async with Client(params, mode="legacy") as c:
            tools = [t.name for t in (await asyncio.wait_for(c.list_tools(), 60)).tools]
            assert "save_plan" in tools, tools
            r = await asyncio.wait_for(c.call_tool("validate_plan", {"plan": plan, "request": request}), 60)
            assert r.structured_content == core_verdict(plan, request)
            r = await asyncio.wait_for(c.call_tool("save_plan", {"plan": plan, "request": request}), 60)
            assert r.is_error is False, r.content
            assert r.structured_content is not None and r.structured_content["saved"] is True
            saved = store / f"{r.structured_content['planId']}.json"
            assert json.loads(saved.read_text(encoding="utf-8")) == plan

    assert not store.exists()
    asyncio.run(go())
    assert store.is_dir()
    assert (store.stat().st_mode & 0o777) == 0o700, oct(store.stat().st_mode)


@pytest.mark.parametrize("command", claude_lines())
def test_claude_code_line_on_a_fresh_home(command: str, tmp_path: Path) -> None:
    home = fresh_home(tmp_path)
    program, *args = shell_words(command, home)
    # By name (found on PATH, here ~/.local/bin), or by the full path the line gives.
    path = Path(program) if "/" in program else home / ".local" / "bin" / program
    assert path.name == "momentum-plan-sandbox" and path.is_relative_to(home), program
    bin_dir = path.parent
    install(bin_dir)
    assert "--store" in args, args
    store = Path(args[args.index("--store") + 1])
    assert store.is_relative_to(home), f"the line's store {store} is under HOME"
    env = host_env(home, bin_dir)
    # A host (Claude Code) starts the command by name from PATH.
    params = StdioServerParameters(command=str(path), args=args, env=env)
    session_saves(params, store)


def test_claude_desktop_config_on_a_fresh_home(tmp_path: Path) -> None:
    home = fresh_home(tmp_path)
    entry = desktop_config()
    command = Path(entry["command"].replace(YOU, str(home)))
    args = [a.replace(YOU, str(home)) for a in entry["args"]]
    assert command.name == "momentum-plan-sandbox" and command.is_relative_to(home)
    install(command.parent)
    store = Path(args[args.index("--store") + 1])
    params = StdioServerParameters(command=str(command), args=args, env=host_env(home, command.parent))
    session_saves(params, store)
