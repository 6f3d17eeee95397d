#!/usr/bin/env bash
# Fuzzes the validator and the MCP server for a fixed time per target (what CI runs).
#
#   fuzz/run.sh [SECONDS] [TARGET ...]     SECONDS per target (default 60); all targets by default
#
# Steps: installs cargo-fuzz when missing (nightly toolchain), seeds the corpora from
# ../shared/examples and ../shared/vectors (fuzz/seed.py -> fuzz/corpus/<target>/, gitignored),
# builds every target, replays the recorded findings (fuzz/regressions/<target>/*), then runs
# each target for SECONDS, one job each. Exit status: 0 when nothing crashed, 1 when a target
# crashed or a regression came back (the input is in fuzz/artifacts/<target>/), 2 on a setup
# failure. Full libFuzzer logs: fuzz/artifacts/<target>.log.
#
# Environment: CARGO_TARGET_DIR (default: fuzz/target, cargo-fuzz's own), FUZZ_SANITIZER
# (default `none`: the core and the server are safe Rust, and without ASan a target runs ~6x
# more inputs per second; `address` to use ASan), FUZZ_NICE (default 10).
set -euo pipefail

FUZZ="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$FUZZ")"
SHARED="$ROOT/../shared"
CARGO_FUZZ_VERSION="0.13.2"
ALL_TARGETS=(validate_text validate_pair mcp_lines http_requests)

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
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz $CARGO_FUZZ_VERSION"
    cargo +nightly install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked \
        || cargo +nightly install cargo-fuzz --version "$CARGO_FUZZ_VERSION" || exit 2
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
for t in "${TARGETS[@]}"; do
    echo "== $t: fuzzing for $SECS s"
    log="$FUZZ/artifacts/$t.log"
    # -timeout: one input over 10 s is a hang; -rss_limit_mb: memory must stay bounded.
    if nice -n "$NICE" cargo +nightly fuzz run -s "$SAN" "$t" -- \
        -max_total_time="$SECS" -dict="$(dict_of "$t")" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 >"$log" 2>&1; then
        grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$log" | tail -n 2 || true
        grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" || true
    else
        echo "!! $t FAILED; the end of its log ($log):"
        grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)|^[[:space:]]+NEW_FUNC' "$log" | tail -n 60
        failed+=("$t")
    fi
    echo "   corpus: $(find "$FUZZ/corpus/$t" -type f | wc -l) inputs"
done

echo "== fuzz/run.sh $SECS: $(( $(date +%s) - started )) s in total"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "== FAILED: ${failed[*]}"
    exit 1
fi
echo "== all targets passed: ${TARGETS[*]}"
