#!/usr/bin/env bash
# Builds the libFuzzer targets in build-fuzz/ (Clang 14, MARTIANDICE_FUZZ:
# coverage instrumentation, ASan and UBSan) and runs each one for a bounded
# time on a copy of its seed corpus (tests/fuzz/<target>/ is never written).
#   tools/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
# SECONDS_PER_TARGET: default 45 ($MARTIANDICE_FUZZ_SECONDS overrides it too);
# TARGET: dice, cli, table, certify (default: all four).
# Exits non-zero on any finding (a crash, sanitizer report, abort of a
# harness check, timeout or out-of-memory: libFuzzer's non-zero exit); the
# reproducer is then in build-fuzz/fuzz/<target>/artifacts/. Replay one with
#   build-fuzz/bin/martiandice_fuzz_<target> FILE
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"

seconds="${1:-${MARTIANDICE_FUZZ_SECONDS:-45}}"
shift || true
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then targets=(dice cli table certify); fi
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: error: SECONDS_PER_TARGET must be a positive whole number, got '$seconds'" >&2
  exit 2
fi

compiler="${MARTIANDICE_FUZZ_CXX:-$(command -v clang++-14 || command -v clang++ || true)}"
if [[ -z "$compiler" ]]; then
  echo "fuzz.sh: error: clang++ not found (tools/install-deps.sh installs clang-14)" >&2
  exit 2
fi

generator=()
if [[ ! -f build-fuzz/CMakeCache.txt ]] && command -v ninja >/dev/null 2>&1; then
  generator=(-G Ninja)
fi
# -O1 -g1: libFuzzer's documented flags, with line tables only for the reports.
cmake -S . -B build-fuzz "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  -DCMAKE_CXX_COMPILER="$compiler" -DMARTIANDICE_FUZZ=ON -DMARTIANDICE_BUILD_TESTS=OFF \
  -DMARTIANDICE_INSTALL=OFF
binaries=()
for target in "${targets[@]}"; do
  case "$target" in
    dice | cli | table | certify) binaries+=("martiandice_fuzz_$target") ;;
    *)
      echo "fuzz.sh: error: unknown target '$target' (dice, cli, table, certify)" >&2
      exit 2
      ;;
  esac
done
cmake --build build-fuzz -j "$(nproc)" --target "${binaries[@]}"

failed=()
for target in "${targets[@]}"; do
  work="$root/build-fuzz/fuzz/$target"
  rm -rf "$work"
  mkdir -p "$work/corpus" "$work/artifacts" "$work/tmp"
  cp "$root/tests/fuzz/$target/"* "$work/corpus/"
  log="$work/fuzz.log"
  echo "fuzz.sh: $target: ${seconds} s on a copy of tests/fuzz/$target/ (log: $log)"
  rc=0
  # -timeout: one input running over 20 s is a finding (a hang); -rss_limit_mb:
  # likewise a run above 2 GiB. The harness's temporary files go to $work/tmp.
  TMPDIR="$work/tmp" \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$root/build-fuzz/bin/martiandice_fuzz_$target" -max_total_time="$seconds" -timeout=20 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
    "$work/corpus" >"$log" 2>&1 || rc=$?
  # libFuzzer's last status line (#runs, cov, ft, corpus) and its final stats.
  grep -E '^#[0-9]+' "$log" | tail -1 || true
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb):' "$log" || true
  if [[ $rc -ne 0 ]]; then
    echo "fuzz.sh: $target: FINDING (exit $rc); the end of the log:" >&2
    tail -40 "$log" >&2
    failed+=("$target")
  fi
done

if [[ ${#failed[@]} -ne 0 ]]; then
  echo "fuzz.sh: findings in: ${failed[*]} (reproducers in build-fuzz/fuzz/<target>/artifacts/)" >&2
  exit 1
fi
echo "fuzz.sh: no finding in: ${targets[*]}"
