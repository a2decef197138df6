#!/usr/bin/env bash
# The JavaScript package's tests (tools/test.sh's web stage): builds the
# WebAssembly module (build.sh), installs the test tools from npm (npm ci:
# playwright-core, which drives Debian's Chromium), then runs the tests of
# web/test/ with Node's test runner against the native command line, $1
# (default: build/bin/martiandice, which tools/test.sh's first stage builds).
# The browser tests must run here (MARTIANDICE_REQUIRE_BROWSER): no Chromium
# or playwright-core fails them.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="$(realpath "${1:-$repo/build/bin/martiandice}")"
if [[ ! -x "$cli" ]]; then
  echo "web/scripts/test.sh: no martiandice CLI at $cli (build it first: cmake --build build)" >&2
  exit 1
fi

"$repo/web/scripts/build.sh"
cd "$repo/web"
npm ci --no-audit --no-fund --prefer-offline
MARTIANDICE_CLI="$cli" MARTIANDICE_REQUIRE_BROWSER=1 node --test test/*.test.mjs
