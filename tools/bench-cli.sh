#!/usr/bin/env bash
# Times the martiandice CLI's `best` as a whole process (start-up, solve, query,
# output): a few warm-up runs, then N timed runs; prints min, median and max.
# Goal: median <= 20 ms.
#
#   tools/bench-cli.sh [-n RUNS] [-b BINARY] [-- CLI ARGS...]
#
# Defaults: 50 runs of `build/bin/martiandice best --roll '2T 3R 4H 3C 1K'`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

runs=50
warmup=3
bin=build/bin/martiandice
goal_ms=20
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n) runs="$2"; shift 2 ;;
    -b) bin="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    --) shift; break ;;
    *) echo "bench-cli: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
if [[ $# -gt 0 ]]; then
  args=("$@")
else
  args=(best --roll '2T 3R 4H 3C 1K')
fi
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "bench-cli: -n needs a positive integer" >&2
  exit 2
fi
if [[ ! -x "$bin" ]]; then
  echo "bench-cli: $bin not found or not executable; build it first (./tools/quickstart.sh)" >&2
  exit 1
fi

shown="$bin"
for arg in "${args[@]}"; do
  if [[ "$arg" =~ [[:space:]] ]]; then shown+=" '$arg'"; else shown+=" $arg"; fi
done
echo "command: $shown"
echo "cpu:     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "runs:    $runs timed after $warmup warm-up"

# One run must succeed before timing.
if ! "$bin" "${args[@]}" >/dev/null; then
  echo "bench-cli: the command failed" >&2
  exit 1
fi
for ((i = 0; i < warmup; ++i)); do "$bin" "${args[@]}" >/dev/null; done

# Bash 5's $EPOCHREALTIME (microseconds) costs no fork; else `date +%s%N`.
times=()
if [[ -n "${EPOCHREALTIME:-}" ]]; then
  clock="bash \$EPOCHREALTIME"
  for ((i = 0; i < runs; ++i)); do
    t0=${EPOCHREALTIME/[.,]/}
    "$bin" "${args[@]}" >/dev/null
    t1=${EPOCHREALTIME/[.,]/}
    times+=($(((10#$t1 - 10#$t0) * 1000)))
  done
else
  clock="date +%s%N"
  for ((i = 0; i < runs; ++i)); do
    t0=$(date +%s%N)
    "$bin" "${args[@]}" >/dev/null
    t1=$(date +%s%N)
    times+=($((t1 - t0)))
  done
fi

mapfile -t sorted < <(printf '%s\n' "${times[@]}" | sort -n)
n=${#sorted[@]}
min=${sorted[0]}
max=${sorted[n - 1]}
if ((n % 2)); then
  median=${sorted[n / 2]}
else
  median=$(((sorted[n / 2 - 1] + sorted[n / 2]) / 2))
fi
ms() { awk -v ns="$1" 'BEGIN { printf "%.2f ms", ns / 1e6 }'; }
verdict=$(awk -v ns="$median" -v g="$goal_ms" 'BEGIN { print (ns / 1e6 <= g) ? "ok" : "OVER GOAL" }')
printf 'wall per process: min %s  median %s  max %s  (goal: median <= %d ms: %s)\n' \
  "$(ms "$min")" "$(ms "$median")" "$(ms "$max")" "$goal_ms" "$verdict"
echo "(clock: $clock; each figure includes the shell's fork/exec of the process)"
