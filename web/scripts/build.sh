#!/usr/bin/env bash
# Builds the JavaScript package's WebAssembly module with Debian's emscripten:
#   web/dist/martiandice-wasm.mjs, web/dist/martiandice-wasm.wasm
# and copies the shipped policy tables into web/dist/tables/ (and the
# repository's LICENSE into web/, for npm pack). Build tree:
# build-wasm/ at the repository's root (or $MARTIANDICE_WASM_BUILD). Abseil for
# wasm comes from web/scripts/absl-wasm.sh's cache (built there once).
# Needs: emscripten, node-acorn (its optimizer), libboost-dev, libabsl-dev
# (its version names the Abseil source to build), dpkg-dev (apt-get source).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${MARTIANDICE_WASM_BUILD:-$repo/build-wasm}"
dist="$repo/web/dist"
jobs="${MARTIANDICE_JOBS:-$(nproc)}"

for tool in emcmake emcc node; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "build.sh: $tool not found (apt-get install emscripten node-acorn)" >&2
    exit 1
  fi
done
# emscripten's JavaScript optimizer needs acorn (Debian's node-acorn).
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

absl_prefix="$("$repo/web/scripts/absl-wasm.sh" | tail -n 1)"

# Boost's and cereal's headers without the rest of /usr/include (whose glibc
# headers would shadow emscripten's libc): folders holding only links to them.
mkdir -p "$build/boost-include" "$build/cereal-include"
ln -sfn /usr/include/boost "$build/boost-include/boost"
ln -sfn /usr/include/cereal "$build/cereal-include/cereal"

generator=()
if [[ ! -f "$build/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
  generator=(-G Ninja)
fi
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
emcmake cmake -S "$repo/web/wasm" -B "$build" "${generator[@]}" "${launcher[@]}" \
  -DCMAKE_BUILD_TYPE=Release \
  -Dabsl_DIR="$absl_prefix/lib/cmake/absl" \
  -DBoost_INCLUDE_DIR="$build/boost-include" \
  -DCEREAL_INCLUDE_DIR="$build/cereal-include"
cmake --build "$build" -j "$jobs"

mkdir -p "$dist/tables"
cp "$build/martiandice-wasm.mjs" "$build/martiandice-wasm.wasm" "$dist/"
cp "$repo"/data/*.mdt "$dist/tables/"
cp "$repo/LICENSE" "$repo/web/LICENSE"
echo "build.sh: wrote $dist: $(cd "$dist" && ls -1 | tr '\n' ' ')"
