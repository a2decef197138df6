#!/usr/bin/env bash
# Checks that martiandice can be consumed the ways the README describes.
# Installs a configured and built tree (default: build/, Release) into a
# temporary prefix and checks the installed files (headers, libraries, CLI,
# tables with their checksums, CMake package, pkg-config files); the installed
# CLI must find the installed table. Then builds and runs the consumer project
# tests/consumer (a C++ program on the C++ library, a C program on the C API,
# both checking real answers) three ways:
#   1. find_package(martiandice CONFIG REQUIRED) against the installed prefix,
#      installed into the prefix and run there: must use the prefix's table;
#   2. pkg-config (martiandice --static, martiandice_c) by hand, likewise;
#   3. add_subdirectory of the source tree (tools and tests must stay off):
#      must use the source tree's data/.
# Any failure stops the script with "check-package: FAILED: ..." and status 1.
# Usage: tools/check-package.sh [BUILD_DIR]   (KEEP=1 keeps the work directory)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source_dir="$PWD"
build="${1:-build}"

fail() {
  echo "check-package: FAILED: $*" >&2
  exit 1
}
step() { echo "check-package: $*"; }
# run LOG CMD...: runs CMD with its output in LOG, shown only if it fails.
run() {
  local log="$1"
  shift
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    fail "$* (log above)"
  fi
}

[[ -f "$build/CMakeCache.txt" ]] || fail "$build is not a configured build tree"
work="$(mktemp -d "${TMPDIR:-/tmp}/martiandice-package.XXXXXX")"
if [[ "${KEEP:-0}" == 1 ]]; then
  step "work directory kept: $work"
else
  trap 'rm -rf "$work"' EXIT
fi
prefix="$work/prefix"
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
table=martiandice-p2-d13-b3-t25.mdt

step "installing $build into $prefix"
run "$work/install.log" cmake --install "$build" --prefix "$prefix"
pc="$(find "$prefix" -name martiandice.pc -path '*/pkgconfig/*' | head -n 1)"
[[ -n "$pc" ]] || fail "no martiandice.pc installed"
libdir="$(dirname "$(dirname "$pc")")"
for file in bin/martiandice include/martiandice/query.h include/martiandice/game.h \
  include/martiandice/martiandice_c.h "share/martiandice/$table" share/martiandice/SHA256SUMS; do
  [[ -f "$prefix/$file" ]] || fail "not installed: $prefix/$file"
done
for file in libmartiandice.a libmartiandice_c.so pkgconfig/martiandice_c.pc \
  cmake/martiandice/martiandiceConfig.cmake cmake/martiandice/martiandiceConfigVersion.cmake; do
  [[ -e "$libdir/$file" ]] || fail "not installed: $libdir/$file"
done
(cd "$prefix/share/martiandice" && sha256sum --check --strict --quiet SHA256SUMS) ||
  fail "installed tables do not match SHA256SUMS"
cli_out="$("$prefix/bin/martiandice" eval --objective win --scores 0,0)" ||
  fail "installed CLI: win query failed"
grep -qF "Table: $prefix/share/martiandice/$table." <<<"$cli_out" ||
  fail "installed CLI did not use the installed table: $(grep Table <<<"$cli_out")"
step "installed files, checksums and the CLI's table lookup: ok"

# check_runs DIR EXPECTED_TABLE_DIR PROGRAM...: runs each consumer; each checks its answers.
check_runs() {
  local expected="$1"
  shift
  local program
  for program in "$@"; do
    "$program" "$expected" || fail "$program"
  done
}

step "1. find_package(martiandice CONFIG REQUIRED) from the installed prefix"
run "$work/fp-configure.log" cmake -S tests/consumer -B "$work/find-package" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_INSTALL_PREFIX="$prefix"
found="$(grep '^martiandice_DIR:' "$work/find-package/CMakeCache.txt" | cut -d= -f2-)"
[[ "$found" == "$libdir/cmake/martiandice" ]] ||
  fail "find_package found martiandice in '$found', not in $libdir/cmake/martiandice"
run "$work/fp-build.log" cmake --build "$work/find-package" -j 2
run "$work/fp-install.log" cmake --install "$work/find-package"
check_runs "$prefix/share/martiandice" "$prefix/bin/martiandice_consumer" \
  "$prefix/bin/martiandice_consumer_c"

step "2. pkg-config from the installed prefix"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
flags="$(pkg-config --cflags --libs --static martiandice)" || fail "pkg-config --static martiandice"
read -r -a cpp_flags <<<"$flags"
flags="$(pkg-config --cflags --libs martiandice_c)" || fail "pkg-config martiandice_c"
read -r -a c_flags <<<"$flags"
run "$work/pc-cpp.log" "${CXX:-c++}" -std=c++20 -O1 tests/consumer/main.cpp "${cpp_flags[@]}" \
  -o "$prefix/bin/martiandice_consumer_pc"
run "$work/pc-c.log" "${CC:-cc}" -std=c11 -O1 tests/consumer/main.c "${c_flags[@]}" -lm \
  '-Wl,-rpath,$ORIGIN/../'"${libdir#"$prefix/"}" -o "$prefix/bin/martiandice_consumer_c_pc"
check_runs "$prefix/share/martiandice" "$prefix/bin/martiandice_consumer_pc" \
  "$prefix/bin/martiandice_consumer_c_pc"

step "3. add_subdirectory of the source tree"
run "$work/sub-configure.log" cmake -S tests/consumer -B "$work/subdirectory" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DMARTIANDICE_SOURCE_DIR="$source_dir"
run "$work/sub-build.log" cmake --build "$work/subdirectory" -j 2
check_runs "$source_dir/data" "$work/subdirectory/martiandice_consumer" \
  "$work/subdirectory/martiandice_consumer_c"

step "every way to consume the package works"
