#!/usr/bin/env bash
# Installs what building and running the CLI needs (tools/install-deps.sh cli:
# not the test toolchain, which tools/test.sh installs), builds the CLI in
# build/ (Release; a new build tree leaves the test suite out), then asks
# it for the best move at each roll of the rulebook's sample turn (docs/RULES.md)
# and for the value of a fresh turn, then plays a roll to win the game (the
# shipped 2-player table in data/).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./tools/install-deps.sh cli

generator=()
tests=()
if [[ ! -f build/CMakeCache.txt ]]; then
  # The suite needs doctest and Python, which tools/test.sh installs and turns on.
  tests=(-DMARTIANDICE_BUILD_TESTS=OFF)
  if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
fi
cmake -S . -B build "${generator[@]}" "${tests[@]}" -DCMAKE_BUILD_TYPE=Release
cmake --build build --target martiandice_cli -j "$(nproc)"

md=build/bin/martiandice

# Prints the command as one would type it, then runs it.
run() {
  local shown="$md" arg
  for arg in "$@"; do
    if [[ "$arg" =~ [[:space:]] ]]; then shown+=" '$arg'"; else shown+=" $arg"; fi
  done
  echo
  echo "\$ $shown"
  "$md" "$@"
}

echo
echo "== The rulebook's sample turn: the best move at each roll =="
run best --roll '2T 3R 4H 3C 1K'
run best --aside '2T 4H' --roll '1T 2R 3C 1K'
run best --aside '3T 2R 4H' --roll '2H 1C 1K'
run best --aside '3T 2R 4H 1K' --roll '1R 1H 1C'

echo
echo "== The value of a fresh turn =="
run eval
run eval --exact

echo
echo "== Playing to win: the same roll when behind 10 to 18, and a fresh game =="
run best --objective win --scores 10,18 --seat 0 --aside '2T 4H' --roll '1T 2R 3C 1K'
run eval --objective win --scores 0,0 --seat 0
