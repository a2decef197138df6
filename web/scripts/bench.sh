#!/usr/bin/env bash
# The web benchmark (web/bench/bench.mjs): builds the WebAssembly module
# (build.sh) and the native side of the same code (build-web-native/:
# web/wasm/CMakeLists.txt with the native compiler), installs playwright-core
# (npm ci) for the browser, then prints the figures and the machine.
# Arguments go to bench.mjs (--runs N, --no-browser).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
native="${MARTIANDICE_WEB_NATIVE_BUILD:-$repo/build-web-native}"
jobs="${MARTIANDICE_JOBS:-$(nproc)}"

"$repo/web/scripts/build.sh" >&2
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
generator=()
if [[ ! -f "$native/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
  generator=(-G Ninja)
fi
cmake -S "$repo/web/wasm" -B "$native" "${generator[@]}" "${launcher[@]}" \
  -DCMAKE_BUILD_TYPE=Release >&2
cmake --build "$native" -j "$jobs" >&2
(cd "$repo/web" && npm ci --no-audit --no-fund --prefer-offline >&2)
node "$repo/web/bench/bench.mjs" --native "$native/martiandice_web_bench" "$@"
