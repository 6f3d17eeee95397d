"""The glibc floor of the wheel and of the Node addon (issue 27 item 8): glibc 2.17, manylinux2014.

Checks, without installing anything:

- the wheel's file name: every platform tag a manylinux tag of glibc 2.17 or lower (PEP 600
  ``manylinux_2_17_x86_64``, or its legacy alias ``manylinux2014_x86_64``), at least one;
- ``auditwheel show`` (the venv's pinned auditwheel) on the wheel: the platform tag it finds the
  wheel consistent with is ``manylinux_2_Y_x86_64`` with Y <= 17;
- every ELF file shipped (the wheel's ``*.so``, the Node tarball's ``*.node``): the highest
  ``GLIBC_x.y`` version it needs (its ``.gnu.version_r`` section, read with pyelftools) is <= 2.17,
  and it needs some (a file linked against no glibc version would prove nothing); and its
  ``.comment`` section names zig's clang and no GCC, so mimalloc's C (alloc/) was compiled by
  zig cc against the old glibc's headers too, not by this machine's gcc against its own.

Usage: python glibc_floor.py WHEEL NODE_TGZ   (the project venv's python: auditwheel, pyelftools)
Exit 0 with one ``ok`` line per check, or 1 with the reason.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Callable, NoReturn

from elftools.elf.elffile import ELFFile
from elftools.elf.gnuversions import GNUVerNeedSection

FLOOR = (2, 17)
# PEP 600's legacy aliases (PEP 513, 571, 599) and the glibc each stands for.
LEGACY = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


def fail(message: str) -> NoReturn:
    print(f"tests/package (glibc floor): {message}", file=sys.stderr)
    sys.exit(1)


def tag_glibc(tag: str) -> tuple[int, int] | None:
    """The glibc of a manylinux platform tag (``manylinux_2_17_x86_64`` -> (2, 17)), else None."""
    m = re.fullmatch(r"manylinux_(\d+)_(\d+)_x86_64", tag)
    if m:
        return int(m[1]), int(m[2])
    m = re.fullmatch(r"(manylinux\d+)_x86_64", tag)
    return LEGACY.get(m[1]) if m else None


def show(version: tuple[int, int]) -> str:
    return ".".join(map(str, version))


def compilers(elf: ELFFile) -> list[str]:
    """The toolchain strings in an ELF file's ``.comment`` section (one per compiler or linker)."""
    section = elf.get_section_by_name(".comment")
    return [c.decode() for c in section.data().split(b"\0") if c] if section else []


def glibc_needed(name: str, elf: ELFFile) -> tuple[int, int]:
    """The highest GLIBC_x.y version an ELF file needs (its version-needs section)."""
    versions = []
    for section in elf.iter_sections():
        if isinstance(section, GNUVerNeedSection):
            for _needed, auxes in section.iter_versions():
                for aux in auxes:
                    m = re.fullmatch(r"GLIBC_(\d+)\.(\d+)(?:\.\d+)?", aux.name)
                    if m:
                        versions.append((int(m[1]), int(m[2])))
    if not versions:
        fail(f"{name} needs no GLIBC_ symbol version (not linked against glibc?)")
    return max(versions)


def check_elf(label: str, name: str, data: bytes) -> None:
    elf = ELFFile(io.BytesIO(data))
    top = glibc_needed(name, elf)
    if top > FLOOR:
        fail(f"{label} {name} needs GLIBC_{show(top)}, above the floor {show(FLOOR)}")
    tools = compilers(elf)
    if not any(t.startswith("clang version") for t in tools) or any(t.startswith("GCC:") for t in tools):
        fail(f"{label} {name} was not compiled by zig cc alone: .comment {tools}")
    print(f"  ok  {label} {name}: highest glibc symbol version needed GLIBC_{show(top)} (<= {show(FLOOR)}); {'; '.join(tools)}")


def check_tags(
    wheel: Path,
    floor_of: Callable[[str], tuple[int, int] | None],
    floor: tuple[int, int],
    fail: Callable[[str], NoReturn],
) -> None:
    """A wheel's platform tags, in its file name ({name}-{version}-{python}-{abi}-{platform[.platform...]}.whl)
    and as ``auditwheel show`` (the venv's pinned auditwheel) finds them: each one's libc version
    (``floor_of``; None for a tag of another kind) at most ``floor``."""
    platforms = wheel.name.removesuffix(".whl").split("-")[-1].split(".")
    floors = [floor_of(t) for t in platforms]
    if not platforms or None in floors or max(f for f in floors if f) > floor:
        fail(f"the wheel's platform tags {platforms} are not all at most {show(floor)}")
    print(f"  ok  the wheel's name says {'.'.join(platforms)}")

    auditwheel = Path(sys.executable).parent / "auditwheel"
    out = subprocess.run([str(auditwheel), "show", str(wheel)], capture_output=True, text=True, check=False)
    m = re.search(r'is consistent with the following platform tag: "([^"]+)"', " ".join(out.stdout.split()))
    found = floor_of(m[1]) if m else None
    if out.returncode != 0 or m is None or found is None or found > floor:
        fail(f"auditwheel show (exit {out.returncode}): {out.stdout}{out.stderr}")
    print(f"  ok  auditwheel show: consistent with {m[1]}")


def shared_objects(wheel: Path, fail: Callable[[str], NoReturn]) -> list[tuple[str, bytes]]:
    """Every ``*.so`` in a wheel, its name and bytes (a wheel holding none fails)."""
    with zipfile.ZipFile(wheel) as z:
        sos = [(n, z.read(n)) for n in z.namelist() if n.endswith(".so")]
    if not sos:
        fail("the wheel holds no .so")
    return sos


def main() -> None:
    wheel, node_tgz = map(Path, sys.argv[1:3])
    check_tags(wheel, tag_glibc, FLOOR, fail)

    for n, data in shared_objects(wheel, fail):
        check_elf("wheel", n, data)
    with tarfile.open(node_tgz) as t:
        addons = [m for m in t.getmembers() if m.isfile() and m.name.endswith(".node")]
        if not addons:
            fail("the Node tarball holds no .node addon")
        for member in addons:
            f = t.extractfile(member)
            assert f is not None
            check_elf("Node addon", member.name, f.read())


if __name__ == "__main__":
    main()
