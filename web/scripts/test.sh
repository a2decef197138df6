#!/usr/bin/env bash
# The JavaScript package's tests (tools/test.sh's web stage): builds the
# WebAssembly module (build.sh), then runs the Node tests of web/test/ against
# the native command line, $1 (default: build/bin/martiandice, which
# tools/test.sh's first stage builds).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="$(realpath "${1:-$repo/build/bin/martiandice}")"
if [[ ! -x "$cli" ]]; then
  echo "web/scripts/test.sh: no martiandice CLI at $cli (build it first: cmake --build build)" >&2
  exit 1
fi

"$repo/web/scripts/build.sh"
cd "$repo/web"
MARTIANDICE_CLI="$cli" node --test test/*.test.mjs
