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
#      must use the source tree's data/;
# and runs the Python ctypes example (docs/C_API.md) on the installed
# libmartiandice_c, which must also find the prefix's table.
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
for file in bin/martiandice include/martiandice/query.h include/martiandice/win_query.h \
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

step "4. Python ctypes on the installed C library"
if command -v python3 >/dev/null 2>&1; then
  lib="$libdir/libmartiandice_c.so"
  run "$work/ctypes.log" python3 tools/examples/ctypes_example.py "$lib"
  grep -q "seat 0 0.190526, seat 1 0.809474" "$work/ctypes.log" ||
    fail "ctypes example: unexpected output: $(cat "$work/ctypes.log")"
  python3 - "$lib" "$prefix/share/martiandice/$table" <<'PY' || fail "ctypes: table lookup"
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
class Query(ctypes.Structure):
    _fields_ = [("dice", ctypes.c_int), ("bonus", ctypes.c_int), ("target", ctypes.c_int),
                ("objective", ctypes.c_char_p), ("scores", ctypes.POINTER(ctypes.c_int)),
                ("players", ctypes.c_int), ("seat", ctypes.c_int)]
handle = ctypes.c_void_p()
assert lib.md_open(None, ctypes.byref(handle)) == 0
scores = (ctypes.c_int * 2)(0, 0)
query = Query(13, 3, 25, b"win", scores, 2, 0)
path = ctypes.create_string_buffer(4096)
lib.md_table_path.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
assert lib.md_table_path(handle, ctypes.byref(query), path, 4096) == 0
if path.value.decode() != sys.argv[2]:
    sys.exit(f"the installed C library used {path.value.decode()}, not {sys.argv[2]}")
PY
else
  step "python3 not found: skipped"
fi

step "every way to consume the package works"
