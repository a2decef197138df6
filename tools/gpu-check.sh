#!/usr/bin/env bash
# The GPU backend's checks and figures (docs/SCALING.md, "On a GPU").
#
#   tools/gpu-check.sh prepare [BUILD]
#       Here, on the Debian machine with nvcc: builds BUILD (default build/)
#       with the CUDA backend (Release, sm_90) and gathers what a GPU machine
#       needs into BUILD/gpu-bundle/: the CLI, the test suite, the GPU
#       benchmark, the benchmark and the Abseil shared libraries they load (the GPU machine
#       has CUDA's driver but none of the project's Debian libraries).
#   tools/gpu-check.sh run [BUNDLE] [LOG]
#       On the GPU machine, from the repository root (data/ holds the shipped
#       tables): the GPU tests, the GPU benchmark (turn solves in double and
#       extended precision, score laws per second), then the official 3-, 2-
#       and 4-player solves on the GPU and on the CPU, each table compared
#       byte for byte (and the 2- and 3-player ones with the shipped tables),
#       the GPU's 2- and 3-player tables certified; a 5-player table
#       (synthetic values, 6.2 GiB) mapped and queried cold and warm; the
#       3-player solve by cycles in flight (32, 256, the backend's choice:
#       the batches' size), and it and the 4-player one with the settling
#       passes' laws on the CPU. Every step
#       has a time limit (at most about 9 minutes in all; about 5 expected on
#       one H100 with 16 cores). Prints every figure with its command, also
#       into LOG (default gpu-check.log). Exits 1 if any check fails.
#   tools/gpu-check.sh large [BUNDLE] [LOG] [SECONDS]
#       On the GPU machine, in a device call of its own, within SECONDS
#       (default 540): the official 5-player solve on the GPU, its table
#       written (6.2 GiB; goal 5 minutes, stopped after 5 min 20 s or
#       SECONDS - 80), then queried cold and warm (martiandice_bench
#       --table), then 6 players to target 12 (a 16 GiB table; goal 10
#       minutes) for the time left. Their progress lines (every 10% and every
#       minute, with the time left) give the rate of a solve that is stopped.
#       LOG defaults to gpu-check-large.log.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

prepare() {
  local build="${1:-build}"
  set -e
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DMARTIANDICE_CUDA=ON
  cmake --build "$build" -j "$(nproc)" --target martiandice_cli martiandice_tests \
    martiandice_gpu_bench martiandice_bench
  local bundle="$build/gpu-bundle"
  rm -rf "$bundle"
  mkdir -p "$bundle/bin" "$bundle/lib"
  for exe in martiandice martiandice_tests martiandice_gpu_bench martiandice_bench; do
    strip -o "$bundle/bin/$exe" "$build/bin/$exe"
  done
  # The shared libraries the executables load that a bare machine lacks
  # (Abseil's, and the C API's that the tests load).
  ldd "$bundle"/bin/* | awk '/libabsl_|libmartiandice/ {print $3}' | sort -u |
    while read -r lib; do cp -L "$lib" "$bundle/lib/"; done
  du -sh "$bundle"
}

failures=0
# check NAME COMMAND...: runs it, timed, its output into the log; counts a failure.
check() {
  local name="$1"
  shift
  echo "== $name"
  echo "\$ $*"
  local start=$SECONDS rc=0
  "$@" || rc=$?
  echo "-- $name: exit $rc, $((SECONDS - start)) s wall"
  if [[ $rc -ne 0 ]]; then failures=$((failures + 1)); fi
  return $rc
}

# same_table NAME A B: the two tables are the same bytes.
same_table() {
  if cmp "$2" "$3"; then
    echo "-- $1: identical ($(stat -c %s "$2") bytes, sha256 $(sha256sum "$2" | cut -c1-16))"
  else
    echo "-- $1: DIFFER"
    failures=$((failures + 1))
  fi
}

# solve P DEVICE OUT [ARGS...]: the official P-player game (ARGS may change
# the rules), JSON report kept. solve_limit: its time limit in seconds (200);
# solve_quiet: empty for the solve's progress lines.
solve() {
  local players="$1" device="$2" out="$3" sampler="" limit="${solve_limit:-200}"
  shift 3
  if [[ "$device" == gpu ]]; then
    nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv,noheader,nounits -lms 200 \
      >"$out.gpu-samples" &
    sampler=$!
  fi
  python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:])
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"   peak host memory {r.ru_maxrss} KB, {r.ru_utime:.1f} s user CPU", file=sys.stderr)
sys.exit(rc)' timeout -s KILL "$limit" "$bin/martiandice" solve --players "$players" --device "$device" \
    --out "$out" ${solve_quiet---quiet} --json "$@" >"$out.json"
  local rc=$?
  # 247: the wrapper's child died of SIGKILL (-9).
  if [[ $rc -eq 247 ]]; then echo "   stopped at its time limit, $limit s"; fi
  if [[ -n "$sampler" ]]; then
    kill "$sampler" 2>/dev/null
    wait "$sampler" 2>/dev/null
    # Utilization: the share of the time a kernel ran (the rest, the GPU
    # waited for the CPU's part of the solve).
    awk -F', *' 'NF == 2 { if ($1 > peak) peak = $1; busy += $2; n++ }
      END { if (n) printf "   peak GPU memory in use %d MiB, GPU busy %.0f%% of %d samples (nvidia-smi, every 0.2 s)\n", peak, busy / n, n }' \
      "$out.gpu-samples"
  fi
  sed 's/"start".*//' "$out.json" | tr ',' '\n' | grep -E '"(seconds|turn_solves|device|name|cpu_turn_solves|batches|cycles_in_flight|launches|error_bound|tied_decisions|bytes)"' | tr '\n' ' '
  grep -o '"certification":{[^}]*' "$out.json" | head -c 300
  echo
  return $rc
}

# workdir: a new folder for the tables (GiBs) beside the repository, on its
# disk (/tmp may be a small tmpfs); removed at the end.
workdir() {
  mktemp -d -p "$PWD" gpu-check-work.XXXXXX
}

# machine BUNDLE: sets bin and LD_LIBRARY_PATH for the bundle; prints the machine.
machine() {
  bin="$1/bin"
  export LD_LIBRARY_PATH="$PWD/$1/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "martiandice gpu-check, $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
}

run() {
  local bundle="${1:-build/gpu-bundle}" log="${2:-gpu-check.log}"
  local work
  work="$(workdir)"
  {
    machine "$bundle"
    # The most telling first: each later step has a time limit, so that the
    # whole run fits one device call (10 minutes) and a slow step loses least.
    check "GPU tests (host emulation and the device, bit for bit)" \
      timeout 120 "$bin/martiandice_tests" -tc='gpu*'
    check "GPU benchmark: turn solves (double, extended) and score laws per second" \
      timeout 120 "$bin/martiandice_gpu_bench" --block 256,512
    for players in 3 2; do
      check "official $players-player solve, GPU, certified" \
        solve "$players" gpu "$work/gpu-p$players.mdt"
      check "official $players-player solve, CPU" \
        solve "$players" cpu "$work/cpu-p$players.mdt" --no-certify
      same_table "$players players: GPU table vs CPU table" \
        "$work/gpu-p$players.mdt" "$work/cpu-p$players.mdt"
      same_table "$players players: GPU table vs shipped table" \
        "$work/gpu-p$players.mdt" "data/martiandice-p$players-d13-b3-t25.mdt"
    done
    check "official 4-player solve, GPU" solve 4 gpu "$work/gpu-p4.mdt" --no-certify
    check "official 4-player solve, CPU" solve 4 cpu "$work/cpu-p4.mdt" --no-certify
    same_table "4 players: GPU table vs CPU table" "$work/gpu-p4.mdt" "$work/cpu-p4.mdt"
    check "5-player table (synthetic values, 6.2 GiB), mapped: Open, best cold and warm" \
      env TMPDIR="$work" timeout 60 "$bin/martiandice_bench" --mapped-table 5 --queries 200
    check "GPU benchmark: 3-player solve by cycles in flight (batch size), laws on GPU or CPU" \
      timeout 90 "$bin/martiandice_gpu_bench" --solve 3 --cycles 32,256,0 --laws gpu,cpu
    check "GPU benchmark: 4-player solve, the settling passes' laws on the CPU" \
      timeout 150 "$bin/martiandice_gpu_bench" --solve 4 --cycles 0 --laws cpu
    echo "failures: $failures"
  } 2>&1 | tee "$log"
  rm -rf "$work"
  grep -q '^failures: 0$' "$log"
}

large() {
  local bundle="${1:-build/gpu-bundle}" log="${2:-gpu-check-large.log}" budget="${3:-540}"
  if ! [[ "$budget" =~ ^[0-9]+$ ]] || ((budget < 140)); then
    echo "$0: large: SECONDS must be a whole number of at least 140; got '$budget'" >&2
    return 2
  fi
  local work
  work="$(workdir)"
  {
    machine "$bundle"
    echo "disk free for the tables: $(df -h --output=avail "$work" | tail -1)"
    solve_limit=$((budget - 80 < 320 ? budget - 80 : 320)) solve_quiet='' \
      check "official 5-player solve, GPU, table written" \
      solve 5 gpu "$work/gpu-p5.mdt" --no-certify
    if [[ -f "$work/gpu-p5.mdt" ]]; then
      check "5-player win queries from the solved table, mapped: Open, best cold and warm" \
        timeout 60 "$bin/martiandice_bench" --table "$work/gpu-p5.mdt" --queries 200
    fi
    rm -f "$work"/gpu-p5.mdt*  # the table, or the checkpoint of a solve stopped
    local left=$((budget - SECONDS))
    if ((left >= 60)); then
      solve_limit=$left solve_quiet='' check "6 players to target 12, GPU, table written ($left s at most)" \
        solve 6 gpu "$work/gpu-p6-t12.mdt" --target 12 --no-certify
    fi
    echo "failures: $failures"
  } 2>&1 | tee "$log"
  rm -rf "$work"
  grep -q '^failures: 0$' "$log"
}

case "${1:-}" in
  prepare) shift; prepare "$@" ;;
  run) shift; run "$@" ;;
  large) shift; large "$@" ;;
  *) echo "usage: $0 prepare [BUILD] | run [BUNDLE] [LOG] | large [BUNDLE] [LOG] [SECONDS]" >&2; exit 2 ;;
esac
