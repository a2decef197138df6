#!/usr/bin/env bash
# Installs the dependencies, builds everything in build/ (Release) and runs the
# whole test suite with ctest; exits with ctest's status.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./tools/install-deps.sh

generator=()
if [[ ! -f build/CMakeCache.txt ]] && command -v ninja >/dev/null 2>&1; then
  generator=(-G Ninja)
fi
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"

status=0
ctest --test-dir build --output-on-failure -j2 || status=$?
exit "$status"
