#!/usr/bin/env python3
"""Two HTTP servers side by side: which one costs less server CPU per request.

    http_ab.py BEFORE AFTER [--rounds 3] [--duration 5] [--labels before,after]

BEFORE and AFTER are two executables started as `EXE --http 127.0.0.1:0 --cache-dir DIR`, each
printing `NAME: listening on http://IP:PORT/mcp` on stderr: two `momentum-plan-sandbox` builds
(e.g. the release build before a change, copied aside, and the one after), or the runner and
`target/release/examples/native-http` (the same handler natively behind the same hyper stack:
the limit, issue 30 item 1; `--labels runner,native`). Runners serve the same
`momentum-plan-mcp-http.wasm`
(`MOMENTUM_PLAN_MCP_HTTP_WASM`, else the release build in the target directory) with their
default flags. Each round drives, with the same `wrk` script as `http_bench.py`, first BEFORE then
AFTER (the order alternates each round, so a drift of the machine hits both): `validate_plan`
(calm-weekday, 2026-07-28) at 8 connections, then the floor (`GET /mcp`, answered `405`) at 8
connections. It prints, per round and as the median over the rounds, requests per second and the
server's CPU per request (all its threads, from /proc) in µs, and AFTER ÷ BEFORE.

A bench, not a test: it never fails on a number (issue 30, item 2: "each change measured alone").
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import http_bench  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration", type=float, default=5.0, help="seconds of load per pass (default 5)")
    ap.add_argument("--labels", default="before,after", help="the two columns' names (default before,after)")
    a = ap.parse_args()
    first, second = a.labels.split(",", 1)
    http_bench.LISTENING = re.compile(r"^\S+: listening on (http://(\S+):(\d+)/mcp)\s*$")
    body = http_bench.body_bytes()
    rows: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="mp-http-ab-") as tmp_name:
        tmp = Path(tmp_name)
        body_file = tmp / "body.json"
        body_file.write_bytes(body)
        servers = {}
        try:
            for name, exe in ((first, a.before), (second, a.after)):
                http_bench.RUNNER = exe
                (tmp / name).mkdir()
                servers[name] = http_bench.start_runner(tmp / name, None)
                http_bench.hand_check(servers[name], body)
                http_bench.wrk(servers[name], body_file, 8, duration=2.0)  # warm-up
            for r in range(a.rounds):
                order = [first, second] if r % 2 == 0 else [second, first]
                for name in order:
                    for what, method in (("validate_plan", "POST"), ("floor GET /mcp", "GET")):
                        ld = http_bench.wrk(servers[name], body_file, 8, duration=a.duration, method=method)
                        rps = ld.requests / ld.seconds
                        cpu_us = ld.server_cpu / ld.requests * 1e6
                        rows.setdefault((what, name), []).append((rps, cpu_us))
                        print(f"round {r + 1} {name:6} {what:15} {rps:9,.0f} req/s {cpu_us:7.1f} µs CPU/request",
                              flush=True)
        finally:
            for s in servers.values():
                s.stop()
    print()
    print(f"| row | {first} req/s | {second} req/s | {second} ÷ {first} | {first} µs CPU/req | {second} µs CPU/req "
          f"| {second} ÷ {first} |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for what in ("validate_plan", "floor GET /mcp"):
        b, f = rows[(what, first)], rows[(what, second)]
        b_rps, f_rps = statistics.median(x[0] for x in b), statistics.median(x[0] for x in f)
        b_cpu, f_cpu = statistics.median(x[1] for x in b), statistics.median(x[1] for x in f)
        print(f"| {what}, 8 connections | {b_rps:,.0f} | {f_rps:,.0f} | {f_rps / b_rps:.2f}× | "
              f"{b_cpu:.1f} | {f_cpu:.1f} | {f_cpu / b_cpu:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
