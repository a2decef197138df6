#!/usr/bin/env bash
# Installs the Debian packages martiandice needs to build and test, only those
# that are missing. Runs apt-get update only when something must be installed.
# Uses sudo when not root. Nothing is downloaded other than through apt.
set -euo pipefail

PACKAGES=(
  cmake
  g++
  ninja-build
  libboost-dev
  libabsl-dev
  libcereal-dev
  doctest-dev
  libcli11-dev
  python3
  librsvg2-bin  # rsvg-convert: the tests render `martiandice plot`'s SVGs to PNG
  tmux  # the tests drive `play` and `coach` in a real terminal
  pkg-config
  # tools/fuzz.sh (the 4th stage of tools/test.sh): libFuzzer with ASan+UBSan.
  clang
  clang-14
  libclang-rt-14-dev
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all dependencies present (${PACKAGES[*]})"
  exit 0
fi

echo "install-deps: installing missing packages: ${missing[*]}"

if [[ "$(id -u)" -eq 0 ]]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "install-deps: error: missing packages (${missing[*]}) and not root, and sudo is not available." >&2
  echo "install-deps: run as root, or install them yourself: apt-get install ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "install-deps: done"
