"""scripts/build-env.sh's shared build directory (issue 28): one run at a time, and a clone's
workspace crates never judged fresh from another clone's artefacts.

Each test sources the real script in a real bash, in real git checkouts made in a temporary
folder, with the shared directory there too (MOMENTUM_PLAN_BUILD_DIR) and the compiler cache off;
the lock is a real flock(2) held by this process.
"""

import fcntl
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OLD = 1_000_000_000  # an mtime (seconds) long before any build


def checkout(parent: Path, name: str) -> Path:
    repo = parent / name
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "lib.rs").write_text("pub fn f() {}\n")
    (repo / "notes.txt").write_text("untracked, not ignored\n")
    (repo / ".gitignore").write_text("target/\n")
    (repo / "target").mkdir()
    (repo / "target" / "ignored").write_text("x\n")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "src", ".gitignore"], check=True)
    for f in ("src/lib.rs", "notes.txt", "target/ignored"):
        os.utime(repo / f, (OLD, OLD))
    return repo


def source(root: Path, build: Path, **env: str) -> dict:
    """Sources scripts/build-env.sh with ROOT=root; returns the variables it exported."""
    script = (
        f'ROOT={root}; . {ROOT}/scripts/build-env.sh || exit 9; '
        'echo "SHARED=$MOMENTUM_PLAN_BUILD_SHARED"; echo "DIR=${CARGO_BUILD_BUILD_DIR:-}"'
    )
    full = {k: v for k, v in os.environ.items()
            if not k.startswith("MOMENTUM_PLAN_") and k not in ("CARGO_BUILD_BUILD_DIR", "RUSTC_WRAPPER")}
    full.update(MOMENTUM_PLAN_SCCACHE="0", MOMENTUM_PLAN_BUILD_DIR=str(build), **env)
    done = subprocess.run(["bash", "-c", script], env=full, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    out["stderr"] = done.stderr
    return out


@pytest.fixture
def place(tmp_path: Path):
    return tmp_path, tmp_path / "build"


def test_first_clone_takes_the_directory_and_is_its_owner(place):
    tmp, build = place
    a = checkout(tmp, "a")
    got = source(a, build)
    assert got["SHARED"] == "1"
    assert got["DIR"] == str(build)
    assert (build / ".owner").read_text() == f"{a.resolve()}\n"


def test_another_clone_touches_its_checkout_and_the_same_clone_does_not(place):
    tmp, build = place
    a, b = checkout(tmp, "a"), checkout(tmp, "b")
    source(a, build)
    # a's files were touched when it became the owner (the first owner switch)
    assert (a / "src" / "lib.rs").stat().st_mtime > OLD
    os.utime(a / "src" / "lib.rs", (OLD, OLD))
    source(a, build)
    assert (a / "src" / "lib.rs").stat().st_mtime == OLD, "the same clone again: nothing touched"

    got = source(b, build)
    assert got["SHARED"] == "1"
    assert (build / ".owner").read_text() == f"{b.resolve()}\n"
    assert (b / "src" / "lib.rs").stat().st_mtime > OLD, "tracked file touched"
    assert (b / "notes.txt").stat().st_mtime > OLD, "untracked file touched"
    assert (b / "target" / "ignored").stat().st_mtime == OLD, "ignored files left alone"
    assert (a / "src" / "lib.rs").stat().st_mtime == OLD, "the other clone left alone"


def test_a_held_lock_sends_the_run_to_its_own_target(place):
    tmp, build = place
    a = checkout(tmp, "a")
    build.mkdir()
    with open(build / ".lock", "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        got = source(a, build)
    assert got["SHARED"] == "0"
    assert got["DIR"] == ""
    assert "another run holds" in got["stderr"]
    assert not (build / ".owner").exists(), "a run without the lock owns nothing"


def test_the_lock_is_released_when_the_sourcing_shell_ends(place):
    tmp, build = place
    a = checkout(tmp, "a")
    assert source(a, build)["SHARED"] == "1"
    with open(build / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises when still held


def test_turned_off_or_outside_git_means_cargo_default(place):
    tmp, build = place
    a = checkout(tmp, "a")
    got = source(a, build, MOMENTUM_PLAN_SHARED_BUILD="0")
    assert (got["SHARED"], got["DIR"]) == ("0", "")
    plain = tmp / "plain"
    plain.mkdir()
    got = source(plain, build)
    assert (got["SHARED"], got["DIR"]) == ("0", "")
    assert not (build / ".owner").exists()
