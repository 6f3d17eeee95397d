"""The musllinux wheel (issue 27 item 8): for musl libc 1.2 or later, needing nothing but musl's libc.

Checks, without installing anything:

- the wheel's file name: every platform tag ``musllinux_1_Y_x86_64`` with Y <= 2, at least one;
- ``auditwheel show`` (the venv's pinned auditwheel) on the wheel: consistent with
  ``musllinux_1_Y_x86_64``, Y <= 2;
- every ``*.so`` in it: its only DT_NEEDED entry is musl's C library (``libc.musl-x86_64.so.1``),
  it needs no glibc symbol version (no ``GLIBC_*`` in its version-needs section), and its
  ``.comment`` names zig's clang and no GCC (mimalloc's C compiled by zig cc for musl too);
- musl's own dynamic loader (``MUSL_LOADER``: Debian 11's ``musl`` package, musl 1.2.2, the
  musllinux_1_2 floor) resolves the ``.so``: the C library is musl itself, and every symbol it
  cannot bind is CPython's C API (``Py*``, ``_Py*``), which the interpreter provides. No musl
  CPython comes from Debian's archive or PyPI (Debian builds CPython only against glibc; PyPI ships
  no interpreters), so the wheel is not imported on musl here: the loader's relocation pass is the
  closest check that runs without downloading an interpreter.

Usage: python musl_wheel.py WHEEL MUSL_LOADER   (the project venv's python: auditwheel, pyelftools)
Exit 0 with one ``ok`` line per check, or 1 with the reason.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NoReturn

from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile
from elftools.elf.gnuversions import GNUVerNeedSection
from glibc_floor import check_tags, compilers, shared_objects

FLOOR = (1, 2)
MUSL_LIBC = "libc.musl-x86_64.so.1"


def fail(message: str) -> NoReturn:
    print(f"tests/package (musl wheel): {message}", file=sys.stderr)
    sys.exit(1)


def tag_musl(tag: str) -> tuple[int, int] | None:
    """The musl of a musllinux platform tag (``musllinux_1_2_x86_64`` -> (1, 2)), else None."""
    m = re.fullmatch(r"musllinux_(\d+)_(\d+)_x86_64", tag)
    return (int(m[1]), int(m[2])) if m else None


def check_elf(name: str, data: bytes) -> None:
    elf = ELFFile(io.BytesIO(data))
    needed = [
        tag.needed  # type: ignore[attr-defined]  # pyelftools: a DT_NEEDED tag has .needed
        for section in elf.iter_sections()
        if isinstance(section, DynamicSection)
        for tag in section.iter_tags()
        if tag.entry.d_tag == "DT_NEEDED"
    ]
    if needed != [MUSL_LIBC]:
        fail(f"{name} needs {needed}, not only {MUSL_LIBC}")
    glibc = [
        aux.name
        for section in elf.iter_sections()
        if isinstance(section, GNUVerNeedSection)
        for _needed, auxes in section.iter_versions()
        for aux in auxes
        if aux.name.startswith("GLIBC")
    ]
    if glibc:
        fail(f"{name} needs glibc symbol versions {sorted(set(glibc))}")
    tools = compilers(elf)
    if not any(t.startswith("clang version") for t in tools) or any(t.startswith("GCC:") for t in tools):
        fail(f"{name} was not compiled by zig cc alone: .comment {tools}")
    print(f"  ok  musllinux wheel {name}: needs {MUSL_LIBC} only, no glibc symbol version; {'; '.join(tools)}")


def check_loader(name: str, data: bytes, loader: Path) -> None:
    with tempfile.TemporaryDirectory() as d:
        so = Path(d) / Path(name).name
        so.write_bytes(data)
        # musl's loader run as `ldd` (any exit status: it reports what it cannot bind and exits 127).
        out = subprocess.run([str(loader), "--list", str(so)], capture_output=True, text=True, check=False)
    text = out.stdout + out.stderr
    if f"{MUSL_LIBC} => {loader}" not in text:
        fail(f"musl's loader did not resolve {MUSL_LIBC} to itself for {name}: {text}")
    unbound = re.findall(r"Error relocating [^:]+: ([^:]+): symbol not found", text)
    others = [s for s in unbound if not re.match(r"_?Py", s)]
    other_errors = [line for line in text.splitlines() if "rror" in line and "symbol not found" not in line]
    if others or other_errors or not unbound:
        fail(f"musl's loader on {name}: unbound {others or 'nothing'}; {other_errors}\n{text}")
    print(f"  ok  musl's loader ({loader.name}) binds {name} to musl; only CPython's {len(unbound)} C API symbols are left")


def main() -> None:
    wheel, loader = Path(sys.argv[1]), Path(sys.argv[2])
    check_tags(wheel, tag_musl, FLOOR, fail)

    for n, data in shared_objects(wheel, fail):
        check_elf(n, data)
        check_loader(n, data, loader)


if __name__ == "__main__":
    main()
