#!/usr/bin/env bash
# Throughput of `martiandice serve`: N best-move requests, half for the
# expected score (ev) and half to win the game (win, from the shipped table),
# at positions and rolls of random turns, written through a pipe and answered
# through a pipe. Prints the machine, the request mix and requests/second.
#   tools/bench-serve.sh [N]      (default N = 1000000; MARTIANDICE=path/to/binary)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000000}
BIN=${MARTIANDICE:-build/bin/martiandice}
[[ -x $BIN ]] || { echo "bench-serve: build $BIN first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Requests from random turns played with random legal takes (seeded): every
# roll of every turn is a `best` request, alternately ev and win (random
# scores below the target, seat 0 or 1), each with an id.
python3 - "$N" "$work/requests" <<'EOF'
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(20261121)
FACES = "TRRHCK"  # one die: tank 1/6, ray 2/6, human, cow, chicken 1/6 each

def fmt(counts):
    text = " ".join(f"{c}{f}" for f, c in zip("TRHCK", counts) if c)
    return text or "-"

def turn():
    aside = [0] * 5  # T R H C K
    while True:
        left = 13 - sum(aside)
        if left == 0:
            return
        roll = [0] * 5
        for _ in range(left):
            roll["TRHCK".index(rng.choice(FACES))] += 1
        yield fmt(aside), fmt(roll)
        aside[0] += roll[0]
        legal = [f for f in (1, 2, 3, 4) if roll[f] and (f == 1 or aside[f] == 0)]
        if not legal:
            return
        face = rng.choice(legal)
        aside[face] += roll[face]
        if rng.random() < 0.3:
            return

pool = []
while len(pool) < 20000:
    for aside, roll in turn():
        pool.append((aside, roll))
with open(path, "w") as out:
    for i in range(n):
        aside, roll = pool[i % len(pool)]
        if i % 2 == 0:
            out.write(f'{{"id":{i},"command":"best","aside":"{aside}","roll":"{roll}"}}\n')
        else:
            seat = rng.randrange(2)
            scores = [rng.randrange(25), rng.randrange(25)]
            out.write(f'{{"id":{i},"command":"best","objective":"win","scores":[{scores[0]},'
                      f'{scores[1]}],"seat":{seat},"aside":"{aside}","roll":"{roll}"}}\n')
EOF

# Every answer is a response, not an error (checked on the first 20000).
head -n 20000 "$work/requests" | "$BIN" serve > "$work/sample"
errors=$(grep -c '"error"' "$work/sample" || true)
lines=$(wc -l < "$work/sample")
want=$((N < 20000 ? N : 20000))
if [[ $errors != 0 || $lines != "$want" ]]; then
  echo "bench-serve: $errors errors, $lines responses for $want requests" >&2
  grep -m 3 '"error"' "$work/sample" >&2 || true
  exit 1
fi

echo "machine:  $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
echo "compiler: $(c++ --version | head -n1); binary: $BIN"
echo "requests: $N best-move lines ($(wc -c < "$work/requests") bytes), half ev, half win"
echo "sample:   $(head -c 160 "$work/sample")..."
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (load average before the runs; other jobs share the cores)"
# Wall time of the whole pipeline (cat | serve | wc), and the CPU time of serve
# alone (user + system), which is what a core dedicated to it would take.
for run in 1 2 3; do
  start=$(date +%s.%N)
  responses=$(cat "$work/requests" | /usr/bin/time -f "%U %S" -o "$work/cpu" "$BIN" serve | wc -l)
  end=$(date +%s.%N)
  [[ $responses == "$N" ]] || { echo "bench-serve: $responses responses for $N requests" >&2; exit 1; }
  read -r user sys < "$work/cpu"
  awk -v n="$N" -v s="$start" -v e="$end" -v r="$run" -v u="$user" -v y="$sys" \
    'BEGIN { printf "run %d:    %.2f s wall, %.0f requests/s through the pipe; serve CPU %.2f s, %.0f requests per CPU-second\n", r, e - s, n / (e - s), u + y, n / (u + y) }'
done
