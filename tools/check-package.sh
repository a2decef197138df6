#!/usr/bin/env bash
# Checks that martiandice can be consumed the ways the README describes.
# Installs a configured and built tree (default: build/, Release) into a
# temporary prefix, then moves the prefix elsewhere (an installed tree works
# wherever it is), and checks the installed files (headers, libraries, CLI,
# tables with their checksums, CMake package, pkg-config files); the installed
# CLI must find the installed table. Then builds and runs the consumer project
# tests/consumer (a C++ program on the C++ library, a C program on the C API,
# both checking real answers and the table they find) three ways:
#   1. find_package(martiandice CONFIG REQUIRED) against the installed prefix
#      (martiandice_DATA_DIR must name the prefix's tables): run from its build
#      folder outside the prefix, again with the source tree hidden (a private
#      mount over it), then installed into the prefix: each must use the
#      prefix's table;
#   2. pkg-config (martiandice, martiandice_c; tablesdir must name the prefix's
#      tables) by hand, run outside the prefix, hidden, and inside it, likewise;
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

step "installing $build into $work/installed, then moving it to $prefix"
run "$work/install.log" cmake --install "$build" --prefix "$work/installed"
mv "$work/installed" "$prefix"
pc="$(find "$prefix" -name martiandice.pc -path '*/pkgconfig/*' | head -n 1)"
[[ -n "$pc" ]] || fail "no martiandice.pc installed"
libdir="$(dirname "$(dirname "$pc")")"
for file in bin/martiandice include/martiandice/query.h include/martiandice/win_query.h \
  include/martiandice/martiandice_c.h "share/martiandice/$table" share/martiandice/SHA256SUMS; do
  [[ -f "$prefix/$file" ]] || fail "not installed: $prefix/$file"
done
library=libmartiandice.a
if grep -q '^MARTIANDICE_SHARED:BOOL=ON' "$build/CMakeCache.txt"; then library=libmartiandice.so; fi
for file in "$library" libmartiandice_c.so pkgconfig/martiandice_c.pc \
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

# The MPI transport plugin, where the build has it: the installed CLI finds it
# under mpirun (from its own place, moved prefix and all).
if [[ -f "$build/bin/libmartiandice_mpi.so" ]]; then
  [[ -f "$libdir/martiandice/libmartiandice_mpi.so" ]] ||
    fail "not installed: $libdir/martiandice/libmartiandice_mpi.so"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 run "$work/mpi.log" \
    mpirun --oversubscribe -np 2 "$prefix/bin/martiandice" solve --players 2 --no-certify \
    --quiet --threads 1 --out "$work/mpi.mdt"
  cmp -s "$work/mpi.mdt" "$prefix/share/martiandice/$table" ||
    fail "the installed CLI under mpirun made another 2-player table than the shipped one"
  step "the installed CLI under mpirun (2 ranks) made the shipped 2-player table: ok"
fi

# hidden CMD...: runs CMD with the source tree hidden under an empty private
# mount, so that the library's compiled-in source data/ is not there; just its
# data/ if the work directory is inside the tree. Plain, with a line, where
# mount namespaces are not allowed.
hide="$source_dir"
case "$work/" in "$source_dir"/*) hide="$source_dir/data" ;; esac
can_hide=1
unshare --mount --map-root-user sh -c 'mount -t tmpfs none "$1" && test ! -e "$1/CMakeLists.txt"' \
  sh "$hide" 2>"$work/unshare.log" || can_hide=0
hidden() {
  if [[ $can_hide == 1 ]]; then
    unshare --mount --map-root-user sh -c 'mount -t tmpfs none "$1" && shift && exec "$@"' \
      sh "$hide" "$@"
  else
    "$@"
  fi
}
if [[ $can_hide == 0 ]]; then
  step "cannot hide the source tree here ($(head -n 1 "$work/unshare.log")): runs with it in place"
else
  step "consumers run twice: as is, then with $hide hidden (an empty private mount)"
fi

# check_runs EXPECTED_TABLE_DIR PROGRAM...: runs each consumer, then again with
# the source tree hidden; each checks its answers and that its table is in
# EXPECTED_TABLE_DIR.
check_runs() {
  local expected="$1"
  shift
  local program
  for program in "$@"; do
    "$program" "$expected" || fail "$program"
    hidden "$program" "$expected" || fail "$program, with the source tree hidden"
  done
}

step "1. find_package(martiandice CONFIG REQUIRED) from the installed prefix"
run "$work/fp-configure.log" cmake -S tests/consumer -B "$work/find-package" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_INSTALL_PREFIX="$prefix"
found="$(grep '^martiandice_DIR:' "$work/find-package/CMakeCache.txt" | cut -d= -f2-)"
[[ "$found" == "$libdir/cmake/martiandice" ]] ||
  fail "find_package found martiandice in '$found', not in $libdir/cmake/martiandice"
grep -qxF -- "-- martiandice tables: $prefix/share/martiandice" "$work/fp-configure.log" ||
  fail "martiandice_DATA_DIR is not $prefix/share/martiandice: $(grep 'tables:' "$work/fp-configure.log")"
run "$work/fp-build.log" cmake --build "$work/find-package" -j 2
check_runs "$prefix/share/martiandice" "$work/find-package/martiandice_consumer" \
  "$work/find-package/martiandice_consumer_c"
run "$work/fp-install.log" cmake --install "$work/find-package"
check_runs "$prefix/share/martiandice" "$prefix/bin/martiandice_consumer" \
  "$prefix/bin/martiandice_consumer_c"

step "2. pkg-config from the installed prefix"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
tablesdir="$(pkg-config --variable=tablesdir martiandice)" || fail "pkg-config tablesdir"
tablesdir="$(realpath -m "$tablesdir")"  # ${pcfiledir}/../..: the same folder
[[ "$tablesdir" == "$prefix/share/martiandice" ]] ||
  fail "pkg-config's tablesdir is '$tablesdir', not $prefix/share/martiandice"
flags="$(pkg-config --cflags --libs --static martiandice)" || fail "pkg-config --static martiandice"
read -r -a cpp_flags <<<"$flags"
flags="$(pkg-config --cflags --libs martiandice_c)" || fail "pkg-config martiandice_c"
read -r -a c_flags <<<"$flags"
mkdir -p "$work/pkg-config"
run "$work/pc-cpp.log" "${CXX:-c++}" -std=c++20 -O1 tests/consumer/main.cpp "${cpp_flags[@]}" \
  -o "$work/pkg-config/martiandice_consumer_pc"
# pkg-config's flags alone: they record the run path (C_API.md's command).
run "$work/pc-c.log" "${CC:-cc}" -std=c11 -O1 tests/consumer/main.c "${c_flags[@]}" -lm \
  -o "$work/pkg-config/martiandice_consumer_c_pc"
cp "$work/pkg-config/martiandice_consumer_pc" "$prefix/bin/"
run "$work/pc-c-installed.log" "${CC:-cc}" -std=c11 -O1 tests/consumer/main.c "${c_flags[@]}" -lm \
  '-Wl,-rpath,$ORIGIN/../'"${libdir#"$prefix/"}" -o "$prefix/bin/martiandice_consumer_c_pc"
check_runs "$prefix/share/martiandice" "$work/pkg-config/martiandice_consumer_pc" \
  "$work/pkg-config/martiandice_consumer_c_pc" "$prefix/bin/martiandice_consumer_pc" \
  "$prefix/bin/martiandice_consumer_c_pc"

step "3. add_subdirectory of the source tree"
run "$work/sub-configure.log" cmake -S tests/consumer -B "$work/subdirectory" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DMARTIANDICE_SOURCE_DIR="$source_dir"
run "$work/sub-build.log" cmake --build "$work/subdirectory" -j 2
for program in "$work/subdirectory/martiandice_consumer" "$work/subdirectory/martiandice_consumer_c"; do
  "$program" "$source_dir/data" || fail "$program"
done

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
