#!/usr/bin/env python3
"""Where the sandboxed runner's CPU goes per HTTP request, by function (issue 30 item 2, "profile
the guest by name"): a bench, never a test.

    profile.py [--duration 10] [--connections 8] [--top 30] [--method POST|GET]

Starts ``$MOMENTUM_PLAN_SANDBOX --http`` (a runner built with the bench-only ``profiling`` feature,
run with ``MOMENTUM_PLAN_PERFMAP=1``, so wasmtime writes ``/tmp/perf-PID.map`` naming each compiled
guest function) serving ``$MOMENTUM_PLAN_MCP_HTTP_WASM`` (built with its name section kept,
``MOMENTUM_PLAN_MCP_KEEP_NAMES=1``), drives it with the same ``wrk`` script and body as
``http_bench.py`` (``tools/call validate_plan`` on calm-weekday, or ``GET /mcp``, the floor), and
samples the runner's threads meanwhile with ``perf record -e cpu-clock`` (a software clock: these
machines have no hardware counters). Prints, as Markdown, the share of the runner's samples per
part (the guest's own code, the WASI and canonical-ABI glue in wasmtime, instantiation and the
slot reset, hyper and tokio, the kernel) and the top functions. Shares, not times: the machine
is shared with wrk, so only the proportions are meaningful.
(``mcp-wasi/bench/profile.sh`` builds both and runs this.)
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import http_bench  # noqa: E402

# Which part of the runner a sampled function belongs to: the first pattern that matches the
# shared object or the symbol, in this order.
PARTS: list[tuple[str, re.Pattern[str]]] = [
    ("guest code (the component's own functions)", re.compile(r"^\[JIT\]|perf-\d+\.map")),
    ("kernel (syscalls, page faults, the slot reset's madvise/mprotect)", re.compile(r"\[kernel|\[unknown\]$")),
    ("instantiation, slot reset (wasmtime runtime: vm, instance, allocator)",
     re.compile(r"wasmtime::runtime::vm|wasmtime::runtime::instance|InstancePre|instantiate|pooling|memory_image|cow")),
    ("WASI and wasi:http host calls, canonical ABI", re.compile(r"wasmtime_wasi|wasmtime::runtime::component|wasi")),
    ("hyper and HTTP", re.compile(r"hyper|http::|httparse|http_body")),
    ("tokio (scheduler, timers, I/O driver)", re.compile(r"tokio|mio")),
    ("allocator (malloc, free)", re.compile(r"malloc|free|realloc|cfree|_int_")),
    ("other wasmtime", re.compile(r"wasmtime|cranelift")),
    ("libc and the rest", re.compile(r".")),
]


def part_of(dso: str, sym: str) -> str:
    for name, pat in PARTS:
        if pat.search(sym) or pat.search(dso):
            return name
    return PARTS[-1][0]


def report(data: Path) -> list[tuple[float, str, str]]:
    """(percent, dso, symbol) per sampled function, from `perf report`."""
    out = subprocess.run(
        ["perf", "report", "-i", str(data), "--stdio", "--no-children", "--sort", "dso,symbol",
         "--percent-limit", "0", "-q"],
        capture_output=True, text=True, check=True,
    ).stdout
    rows = []
    for line in out.splitlines():
        # `  5.82%  [JIT] tid 17373   [.] _ZN10serde_json...E   -  -`: the shared object may hold spaces.
        m = re.match(r"^\s*([\d.]+)%\s+(.+?)\s+\[[.kHgu]\]\s+(.*?)(?:\s+-\s+-)?\s*$", line)
        if m:
            rows.append((float(m.group(1)), m.group(2), m.group(3)))
    # The perf map holds the guest's names as the compiler mangled them: c++filt reads Rust's
    # legacy mangling (`_ZN...17h<hash>E`); the hash is dropped.
    if shutil.which("c++filt"):
        names = subprocess.run(["c++filt"], input="\n".join(r[2] for r in rows), capture_output=True, text=True,
                               check=True).stdout.splitlines()
        if len(names) == len(rows):
            rows = [(p, dso, re.sub(r"::h[0-9a-f]{16}$", "", n)) for (p, dso, _), n in zip(rows, names)]
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=float, default=10.0, help="seconds of sampled load (default 10)")
    ap.add_argument("--connections", type=int, default=8)
    ap.add_argument("--top", type=int, default=30, help="how many functions to list (default 30)")
    ap.add_argument("--keep", type=Path, help="also copy perf.data here")
    ap.add_argument("--method", choices=("POST", "GET"), default="POST",
                    help="POST: tools/call validate_plan; GET: the floor, GET /mcp answered 405")
    a = ap.parse_args()
    body = http_bench.body_bytes()
    with tempfile.TemporaryDirectory(prefix="mp-http-profile-") as tmp_name:
        tmp = Path(tmp_name)
        body_file = tmp / "body.json"
        body_file.write_bytes(body)
        server = http_bench.start_runner(tmp, None)
        try:
            http_bench.hand_check(server, body)
            http_bench.wrk(server, body_file, a.connections, duration=2.0, method=a.method)  # warm-up
            data = tmp / "perf.data"
            perf = subprocess.Popen(
                ["perf", "record", "-e", "cpu-clock", "-F", "4000", "-p", str(server.proc.pid), "-o", str(data),
                 "--", "sleep", f"{a.duration:g}"],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            )
            load: list[http_bench.Load] = []
            t = threading.Thread(target=lambda: load.append(
                http_bench.wrk(server, body_file, a.connections, duration=a.duration, method=a.method)))
            t.start()
            _, perf_err = perf.communicate()
            t.join()
            if perf.returncode != 0:
                raise RuntimeError(f"perf record failed: {perf_err}")
            rows = report(data)
            if a.keep:
                a.keep.write_bytes(data.read_bytes())
        finally:
            server.stop()
    if not rows:
        print("profile.py: perf recorded no samples", file=sys.stderr)
        return 1
    ld = load[0]
    named = sum(p for p, dso, sym in rows if part_of(dso, sym).startswith("guest") and not sym.startswith("0x"))
    guest = sum(p for p, dso, sym in rows if part_of(dso, sym).startswith("guest"))
    what = "tools/call validate_plan (calm-weekday)" if a.method == "POST" else "GET /mcp (the floor, 405)"
    print(f"#### Where the runner's CPU goes: {what}, {a.connections} connections\n")
    print(f"`perf record -e cpu-clock` on the runner's threads for {a.duration:g} s of `wrk` load: "
          f"{ld.requests:,} requests, {ld.server_cpu / max(ld.requests, 1) * 1e6:.0f} µs of server CPU per request. "
          f"Guest functions named through wasmtime's perf map: {named:.1f} of the guest's {guest:.1f} %.\n")
    shares: dict[str, float] = defaultdict(float)
    for p, dso, sym in rows:
        shares[part_of(dso, sym)] += p
    print("| part | share of the runner's samples |")
    print("|---|---:|")
    for name, _ in PARTS:
        if shares.get(name):
            print(f"| {name} | {shares[name]:.1f} % |")
    print(f"\n| top {a.top} functions | part | share |")
    print("|---|---|---:|")
    for p, dso, sym in sorted(rows, reverse=True)[: a.top]:
        short = sym if len(sym) <= 110 else sym[:107] + "..."
        print(f"| `{short.replace('|', '/')}` | {part_of(dso, sym).split(' (')[0]} | {p:.1f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
