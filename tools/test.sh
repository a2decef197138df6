#!/usr/bin/env bash
# Installs the dependencies, then builds and tests in three build trees:
#   1. build/      Release: the whole test suite with ctest; then
#                  tools/check-package.sh installs it into a temporary prefix
#                  and builds and runs tests/consumer against it (find_package,
#                  pkg-config) and against the source tree (add_subdirectory);
#   web:           web/scripts/test.sh: the library in WebAssembly (build-wasm/)
#                  and its JavaScript package (web/), whose answers must equal
#                  build/'s CLI's; skipped, with a message, only when apt could
#                  not install emscripten;
#   2. build-asan/ -O1 -g1 under ASan+UBSan (MARTIANDICE_SANITIZE=address):
#                  the whole test suite again but the label heavy (ctest -LE
#                  heavy: the doctest suite "heavy", large games whose code the
#                  smaller cases run, three fifths of its tests' time); any
#                  finding (memory error, leak, undefined behaviour) aborts the
#                  test, which fails;
#   3. build-tsan/ -O1 -g1 under TSan (MARTIANDICE_SANITIZE=thread):
#                  the tests binary of the concurrency cases' files only
#                  (MARTIANDICE_TESTS=concurrency), those cases (ctest -R
#                  concurrency); any data race fails;
#   4. build-fuzz/ tools/fuzz.sh: the libFuzzer targets (dice notation, CLI,
#                  table reader, certifier) for $MARTIANDICE_FUZZ_SECONDS each
#                  (default 45: three minutes in all); any finding fails.
# A failing build stops the script at once; failing tests do not stop the later
# stages. Exits 0 if every stage passed, else with the first failing check's status.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./tools/install-deps.sh all

# configure DIR CMAKE_ARGS...: Ninja for a new build tree when available.
configure() {
  local dir="$1"
  shift
  local generator=()
  if [[ ! -f "$dir/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
  fi
  cmake -S . -B "$dir" "${generator[@]}" "$@"
}

status=0
failed=()
timings=()
# begin STAGE: the stage that follows (a log cut short still shows where the time went).
begin() {
  stage="$1"
  start=$SECONDS
  echo "test.sh: $stage starts, $SECONDS s in"
}
# check COMMAND...: runs it; a failure fails the stage (the first one's status is the script's).
check() {
  local rc=0
  "$@" || rc=$?
  if [[ $rc -ne 0 ]]; then
    if [[ ${#failed[@]} -eq 0 || "${failed[-1]}" != "$stage" ]]; then failed+=("$stage"); fi
    if [[ $status -eq 0 ]]; then status=$rc; fi
  fi
}
# end [NOTE]: the stage's wall time (configure, build and tests), or NOTE.
end() {
  timings+=("$stage: ${1:-$((SECONDS - start)) s}")
}

begin "release (build/)"
configure build -DCMAKE_BUILD_TYPE=Release -DMARTIANDICE_BUILD_TESTS=ON
cmake --build build -j "$(nproc)"
check ctest --test-dir build --output-on-failure -j2
end

begin "package (tools/check-package.sh)"
check ./tools/check-package.sh build
end

begin "web (web/scripts/test.sh)"
if command -v emcc >/dev/null 2>&1; then
  check ./web/scripts/test.sh build/bin/martiandice
  end
else
  echo "test.sh: web stage SKIPPED: emscripten is not installed and apt could not install it" \
    "(see tools/install-deps.sh's warning)" >&2
  end "SKIPPED (no emscripten)"
fi

# The sanitizer builds at -O1 (the level ASan's documentation suggests) with
# line tables only (-g1), enough for the reports' stacks: the ASan build takes
# half the time of -O2 -g (16 minutes on 2 cores against 33), its tests a quarter more.
sanitized=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")

begin "asan+ubsan (build-asan/)"
configure build-asan "${sanitized[@]}" -DMARTIANDICE_SANITIZE=address
cmake --build build-asan -j "$(nproc)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  check ctest --test-dir build-asan --output-on-failure -j2 -LE heavy
end

begin "tsan (build-tsan/)"
configure build-tsan "${sanitized[@]}" -DMARTIANDICE_SANITIZE=thread -DMARTIANDICE_TESTS=concurrency
cmake --build build-tsan -j "$(nproc)" --target martiandice_tests
TSAN_OPTIONS=halt_on_error=1 \
  check ctest --test-dir build-tsan --output-on-failure -j2 -R concurrency --no-tests=error
end

begin "fuzz (build-fuzz/)"
check ./tools/fuzz.sh "${MARTIANDICE_FUZZ_SECONDS:-45}"
end

echo "test.sh: wall time per stage (configure, build and tests):"
printf 'test.sh:   %s\n' "${timings[@]}"
if [[ $status -ne 0 ]]; then
  printf 'test.sh: tests FAILED in: %s\n' "${failed[*]}" >&2
  exit "$status"
fi
echo "test.sh: every stage passed"
