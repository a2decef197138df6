#!/usr/bin/env bash
# Installs the Debian packages martiandice needs, only those that are missing.
# Runs apt-get update only when something must be installed. Uses sudo when not
# root. Nothing is downloaded other than through apt.
# Usage: tools/install-deps.sh [cli|all]
#   cli  what building and running the CLI and the library needs
#        (tools/quickstart.sh);
#   all  that and everything tools/test.sh runs: the test suite, its terminal
#        and picture checks, the solve under mpirun (Open MPI), the sanitizers and the fuzzer, the WebAssembly
#        build and the browser tests (the default).
set -euo pipefail

scope="${1:-all}"
if [[ "$scope" != cli && "$scope" != all ]]; then
  echo "install-deps: unknown scope '$scope': expected cli or all" >&2
  exit 2
fi

# Building and running the library and the CLI.
PACKAGES=(
  cmake
  g++
  ninja-build
  libboost-dev
  libabsl-dev
  libcereal-dev  # the game solve's checkpoints
  libcli11-dev
)
WEB_PACKAGES=()
if [[ "$scope" == all ]]; then
  PACKAGES+=(
    doctest-dev
    python3
    librsvg2-bin  # rsvg-convert: the tests render `martiandice plot`'s SVGs to PNG
    tmux  # the tests drive `play` and `coach` in a real terminal
    # The solve across processes (mpirun, ctest mpi_solve); the build and the
    # other tests do without.
    openmpi-bin
    libopenmpi-dev
    pkg-config  # tools/check-package.sh
    # tools/fuzz.sh (the 4th stage of tools/test.sh): libFuzzer with ASan+UBSan.
    clang
    clang-14
    libclang-rt-14-dev
  )
  # The web stage of tools/test.sh (web/scripts/test.sh: the library in
  # WebAssembly, its JavaScript package and their tests). Installed when apt can;
  # without them that stage is skipped with a message. npm only when there is no
  # npm command (a Node.js from elsewhere brings its own).
  WEB_PACKAGES=(
    emscripten
    node-acorn  # emscripten's JavaScript optimizer
    dpkg-dev    # apt-get source: Abseil built for wasm from Debian's source package
    node-typescript  # the package's TypeScript declarations, checked
    chromium    # the browser tests (driven by playwright-core from npm)
  )
  if ! command -v npm >/dev/null 2>&1; then WEB_PACKAGES+=(npm); fi
fi

missing_of() {
  local pkg status
  for pkg in "$@"; do
    status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
    if [[ "$status" != "install ok installed" ]]; then
      echo "$pkg"
    fi
  done
}
mapfile -t missing < <(missing_of "${PACKAGES[@]}")
web_missing=()
if [[ ${#WEB_PACKAGES[@]} -gt 0 ]]; then
  mapfile -t web_missing < <(missing_of "${WEB_PACKAGES[@]}")
fi

if [[ ${#missing[@]} -eq 0 && ${#web_missing[@]} -eq 0 ]]; then
  echo "install-deps: all dependencies present ($scope: ${PACKAGES[*]} ${WEB_PACKAGES[*]})"
  exit 0
fi

echo "install-deps: installing missing packages: ${missing[*]} ${web_missing[*]}"

if [[ "$(id -u)" -eq 0 ]]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "install-deps: error: missing packages (${missing[*]} ${web_missing[*]}) and not root, and sudo is not available." >&2
  echo "install-deps: run as root, or install them yourself: apt-get install ${missing[*]} ${web_missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
if [[ ${#missing[@]} -gt 0 ]]; then
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [[ ${#web_missing[@]} -gt 0 ]]; then
  if ! "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${web_missing[@]}"; then
    echo "install-deps: warning: could not install ${web_missing[*]}: tools/test.sh will skip its web stage" >&2
  fi
fi
echo "install-deps: done"
