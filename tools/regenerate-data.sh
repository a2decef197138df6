#!/usr/bin/env bash
# Regenerates the shipped policy tables in data/ with the solver (2 and 3
# players), certifying each, and their checksum manifest. The test suite
# checks both tables bit for bit against fresh solves (tests/library/shipped_tables_test.cpp),
# and the manifest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmake --build build --target martiandice_cli >/dev/null
build/bin/martiandice solve --players 2 --out data/martiandice-p2-d13-b3-t25.mdt
build/bin/martiandice solve --players 3 --out data/martiandice-p3-d13-b3-t25.mdt
(cd data && sha256sum -- *.mdt > SHA256SUMS)
cat data/SHA256SUMS
