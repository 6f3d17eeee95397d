"""(5) memory cap, (6) runner errors, and the runner's lookup and compile cache, end to end.

The runner's exit codes (mcp-wasi/sandbox/src/exit.rs): 64 usage, 65 no .wasm, 66 bad store,
67 bad .wasm, 68 trap, 69 memory cap, 70 internal; otherwise the guest's own status.
Every failure prints one line starting ``momentum-plan-sandbox: error:`` on stderr and nothing on
stdout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sandbox_env import EXIT, RUNNER, WASM, RawSession, example, runner_args

INIT = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }
)


def run_runner(
    args: list[str],
    stdin: str = INIT + "\n",
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    exe: Path = RUNNER,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("MOMENTUM_PLAN_MCP_WASM",)}
    return subprocess.run(
        [str(exe), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        cwd=cwd,
        timeout=timeout,
    )


def assert_runner_error(p: subprocess.CompletedProcess[str], code: int, *needles: str) -> None:
    assert p.returncode == code, (p.returncode, p.stderr)
    assert p.stdout == "", "stdout carries only protocol messages"
    errors = [line for line in p.stderr.splitlines() if line.startswith("momentum-plan-sandbox: error:")]
    assert len(errors) == 1, p.stderr
    for n in needles:
        assert n in errors[0], (n, errors[0])


# (6) runner errors ---------------------------------------------------------------------------------


def test_missing_wasm_flag(tmp_path: Path, cache_dir: Path) -> None:
    missing = tmp_path / "nope.wasm"
    p = run_runner(runner_args(None, cache_dir, wasm=missing))
    assert_runner_error(p, EXIT["no_wasm"], "--wasm", str(missing))


def test_missing_wasm_env(tmp_path: Path, cache_dir: Path) -> None:
    missing = tmp_path / "env.wasm"
    p = run_runner(runner_args(None, cache_dir, wasm=None), env={"MOMENTUM_PLAN_MCP_WASM": str(missing)})
    assert_runner_error(p, EXIT["no_wasm"], "MOMENTUM_PLAN_MCP_WASM", str(missing))


def test_env_wasm_is_used(cache_dir: Path) -> None:
    p = run_runner(runner_args(None, cache_dir, wasm=None), env={"MOMENTUM_PLAN_MCP_WASM": str(WASM)})
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["result"]["serverInfo"]["name"] == "momentum-planner"


def test_lone_runner_uses_its_embedded_server(tmp_path: Path, cache_dir: Path) -> None:
    """The installed layout: the runner alone in a directory, started elsewhere, with no .wasm
    anywhere and no variable set, runs the server component built into it; the embedded copy is
    byte for byte the component the workspace built (sandbox test.sh embeds that one)."""
    lone = tmp_path / "bin" / "momentum-plan-sandbox"
    lone.parent.mkdir()
    shutil.copy2(RUNNER, lone)
    p = run_runner(runner_args(None, cache_dir, wasm=None, extra=["-v"]), exe=lone, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["result"]["serverInfo"]["name"] == "momentum-planner"
    assert "wasm the embedded momentum-plan-mcp.wasm (from built into the runner)" in p.stderr
    assert f"read the embedded momentum-plan-mcp.wasm ({WASM.stat().st_size} bytes)" in p.stderr
    assert WASM.read_bytes() in lone.read_bytes()


def test_store_not_a_directory(tmp_path: Path, cache_dir: Path) -> None:
    f = tmp_path / "plans.json"
    f.write_text("{}")
    assert_runner_error(run_runner(runner_args(f, cache_dir)), EXIT["bad_store"], "not a directory", str(f))
    under_file = f / "plans"
    assert_runner_error(
        run_runner(runner_args(under_file, cache_dir)),
        EXIT["bad_store"],
        f"--store {under_file}: cannot create it: {f} is not a directory",
    )
    assert f.read_text() == "{}", "the file is left as it was"


def test_store_created_when_missing_existing_mode_untouched(tmp_path: Path, cache_dir: Path) -> None:
    """A missing store is created with its parents (spec: mode 0700); an existing one keeps its mode.
    The README's host lines on a fresh HOME: test_first_start.py."""
    missing = tmp_path / "a" / "b" / "plans"
    p = run_runner(runner_args(missing, cache_dir))
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["result"]["capabilities"].get("resources") is not None, "served with a store"
    assert missing.is_dir() and (missing.stat().st_mode & 0o777) == 0o700
    # The log names the host folder, not only the guest's /plans (issue 29 finding 10).
    assert f"plan store {missing.resolve()} (the server sees it as /plans)" in p.stderr.splitlines()[0], p.stderr
    existing = tmp_path / "shared-plans"
    existing.mkdir()
    existing.chmod(0o755)
    assert run_runner(runner_args(existing, cache_dir)).returncode == 0
    assert (existing.stat().st_mode & 0o777) == 0o755


def test_not_a_component(tmp_path: Path, cache_dir: Path) -> None:
    for name, data in [("garbage.wasm", b"not wasm at all"), ("module.wasm", b"\0asm\x01\0\0\0"), ("empty.wasm", b"")]:
        bad = tmp_path / name
        bad.write_bytes(data)
        assert_runner_error(run_runner(runner_args(None, cache_dir, wasm=bad)), EXIT["bad_wasm"], str(bad))


def test_bad_command_lines(cache_dir: Path) -> None:
    for args in (["--bogus"], ["--memory-mib", "0"], ["--memory-mib", "lots"], ["--no-cache", "--cache-dir", str(cache_dir)]):
        p = run_runner(args)
        assert p.returncode == EXIT["usage"], (args, p.stderr)
        assert p.stdout == ""
    h = run_runner(["--help"], stdin="")
    assert h.returncode == 0 and "--memory-mib" in h.stdout and "--store" in h.stdout


def test_eof_is_a_clean_exit(cache_dir: Path) -> None:
    p = run_runner(runner_args(None, cache_dir), stdin="")
    assert p.returncode == 0 and p.stdout == "", p.stderr
    assert p.stderr.splitlines()[0] == "momentum-plan-sandbox: no --store given: the server is read-only (no save_plan)"


# (5) the memory cap ----------------------------------------------------------------------------------


def big_validate_line(megabytes: float) -> str:
    """A tools/call validate_plan line whose plan is a JSON text string of about `megabytes` MiB."""
    plan, request = example("calm-weekday")
    filler = "x" * int(megabytes * (1 << 20))
    text = json.dumps(dict(plan, description=filler))
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "validate_plan", "arguments": {"plan": text, "request": request}},
        }
    )


def test_memory_cap_too_small_to_start(cache_dir: Path) -> None:
    p = run_runner(runner_args(None, cache_dir, memory_mib=1))
    assert_runner_error(p, EXIT["memory_cap"], "ran out of memory", "--memory-mib caps it at 1 MiB")


def test_memory_cap_hit_by_a_huge_plan(cache_dir: Path) -> None:
    """A 3.5 MiB plan (under the 4 MiB line limit) in a 6 MiB guest: a clear error, not a hang."""
    line = big_validate_line(3.5)
    assert len(line) < 4 << 20
    p = run_runner(runner_args(None, cache_dir, memory_mib=6), stdin=INIT + "\n" + line + "\n", timeout=60)
    assert p.returncode == EXIT["memory_cap"], (p.returncode, p.stderr[-2000:])
    first, *rest = p.stdout.splitlines()
    assert json.loads(first)["id"] == 1 and rest == [], "only the initialize answer"
    assert "ran out of memory" in p.stderr and "--memory-mib caps it at 6 MiB" in p.stderr


def test_same_huge_plan_fits_the_default_cap(cache_dir: Path) -> None:
    """Control: with the default 64 MiB the same line gets its answer (a verdict)."""
    line = big_validate_line(3.5)
    p = run_runner(runner_args(None, cache_dir), stdin=INIT + "\n" + line + "\n", timeout=60)
    assert p.returncode == 0, p.stderr[-2000:]
    answers = [json.loads(x) for x in p.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2]
    assert answers[1]["result"]["isError"] is False
    assert answers[1]["result"]["structuredContent"]["valid"] is False


# the compile cache ---------------------------------------------------------------------------------------


def cache_line(stderr: str) -> str:
    lines = [x for x in stderr.splitlines() if "cache:" in x]
    assert len(lines) == 1, stderr
    return lines[0]


def test_cache_cold_then_warm_then_repaired(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    args = runner_args(None, cache, extra=["-v"])
    first = run_runner(args)
    assert first.returncode == 0 and "cache: miss, compiled; stored" in cache_line(first.stderr)
    entries = sorted(cache.glob("*.cwasm"))
    assert len(entries) == 1
    second = run_runner(args)
    assert second.returncode == 0 and "cache: hit" in cache_line(second.stderr)
    assert first.stdout == second.stdout
    # Corrupt the entry: the next start recompiles and replaces it; no temporary files remain.
    data = bytearray(entries[0].read_bytes())
    data[len(data) // 2] ^= 0xFF
    entries[0].write_bytes(bytes(data))
    third = run_runner(args)
    assert third.returncode == 0, third.stderr
    assert "old entry unusable: checksum mismatch" in cache_line(third.stderr)
    assert "cache: hit" in cache_line(run_runner(args).stderr)
    assert sorted(p.name for p in cache.iterdir() if not p.name.endswith(".lock")) == [entries[0].name]


def test_concurrent_cold_starts_compile_once(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    procs = [
        subprocess.Popen(
            [str(RUNNER), *runner_args(None, cache, extra=["-v"])],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outs = [p.communicate(INIT + "\n", timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], outs
    kinds = [cache_line(err) for _, err in outs]
    assert sum("cache: miss" in k for k in kinds) == 1, kinds
    assert sum("cache: hit" in k for k in kinds) == 2, kinds


def test_cache_dir_unwritable_is_not_fatal(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    p = run_runner(runner_args(None, blocker / "cache", extra=["-v"]))
    assert p.returncode == 0, p.stderr
    assert "not stored" in cache_line(p.stderr)
    assert json.loads(p.stdout)["id"] == 1


def test_default_cache_dir_follows_xdg(tmp_path: Path) -> None:
    args = [a for a in runner_args(None, None) if a != "--no-cache"] + ["-v"]
    p = run_runner(args, env={"XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert p.returncode == 0, p.stderr
    assert len(list((tmp_path / "xdg" / "momentum-plan").glob("*.cwasm"))) == 1
    h = run_runner(args, env={"XDG_CACHE_HOME": "", "HOME": str(tmp_path / "home")})
    assert h.returncode == 0, h.stderr
    assert len(list((tmp_path / "home" / ".cache" / "momentum-plan").glob("*.cwasm"))) == 1


@pytest.mark.parametrize("store_flag", [False, True])
def test_interactive_session_and_exit_code(store_flag: bool, tmp_path: Path, cache_dir: Path) -> None:
    """Line by line, as a host drives it: each answer arrives before the next request is sent."""
    store = tmp_path / "plans"
    store.mkdir()
    with RawSession(runner_args(store if store_flag else None, cache_dir)) as s:
        init = s.initialize()
        assert init["result"]["protocolVersion"] == "2025-11-25"
        for i in range(5):
            assert s.request(100 + i, "ping") == {"jsonrpc": "2.0", "id": 100 + i, "result": {}}
        assert s.close() == 0
        assert s.recv_text() is None
