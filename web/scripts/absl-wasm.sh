#!/usr/bin/env bash
# Abseil compiled for WebAssembly, from Debian's source package of the same
# version as the installed libabsl-dev (so the wasm build and the native build
# use the same Abseil), installed into a cache outside every build tree:
#   ${MARTIANDICE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/martiandice}/absl-wasm-<version>
# Built once (about 2 minutes on 2 cores); later runs find it and only print its
# path. Prints the install prefix as its last line of output (for build.sh).
# Needs emscripten (emcmake) and dpkg-dev (apt-get source). When apt knows no
# source package of that version, the source is fetched with a private apt
# configuration (deb-src entries mirroring the machine's Debian sources, lists
# and caches in a temporary folder): the system's apt sources and lists are left
# as they were, and no root is needed.
set -euo pipefail

version="$(dpkg-query -W -f='${Version}' libabsl-dev 2>/dev/null || true)"
if [[ -z "$version" ]]; then
  echo "absl-wasm: libabsl-dev is not installed (tools/install-deps.sh installs it)" >&2
  exit 1
fi
home="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
cache="${MARTIANDICE_CACHE:-${XDG_CACHE_HOME:-$home/.cache}/martiandice}"
prefix="$cache/absl-wasm-$version"
if [[ -f "$prefix/.complete" ]]; then
  echo "absl-wasm: cached at $prefix" >&2
  echo "$prefix"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# apt's options for the source package: the system's, or a private
# configuration under $work with deb-src entries for each deb entry of Debian's
# sources, if the system's apt knows no source package of this version.
apt_options=()
if ! apt-cache showsrc "abseil" 2>/dev/null | grep -qx "Version: $version"; then
  echo "absl-wasm: fetching Debian's source package lists into a private apt configuration" >&2
  apt="$work/apt"
  mkdir -p "$apt/sources.list.d" "$apt/lists/partial" "$apt/cache/archives/partial"
  if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
    # deb822 format (Debian 12's default).
    sed -e 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
      >"$apt/sources.list.d/deb-src.sources"
  elif [[ -f /etc/apt/sources.list ]]; then
    grep -E '^deb ' /etc/apt/sources.list | sed -e 's/^deb /deb-src /' \
      >"$apt/sources.list.d/deb-src.list"
  else
    echo "absl-wasm: no Debian sources list found to mirror as deb-src" >&2
    exit 1
  fi
  apt_options=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt/sources.list.d"
    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
  if [[ "$(id -u)" -ne 0 ]]; then
    apt_options+=(-o APT::Sandbox::User="$(id -un)" -o Debug::NoLocking=1)
  fi
  apt-get "${apt_options[@]}" update -q >&2
fi

echo "absl-wasm: building Abseil $version for wasm into $prefix" >&2
(
  cd "$work"
  # As the user: apt-get source unpacks (and patches) into the current folder.
  apt-get "${apt_options[@]}" source -q "abseil=$version" >&2
)
src="$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'abseil-*' | head -n 1)"
if [[ -z "$src" ]]; then
  echo "absl-wasm: apt-get source abseil=$version unpacked nothing" >&2
  exit 1
fi
# Debian's latomic.diff links every Abseil target with -latomic (for armel);
# wasm has no libatomic and its linker knows no --push-state: reverted here.
if [[ -f "$src/debian/patches/latomic.diff" ]]; then
  patch -d "$src" -R -p1 -s < "$src/debian/patches/latomic.diff"
fi
emcmake cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_STANDARD=20 -DABSL_PROPAGATE_CXX_STD=ON -DBUILD_TESTING=OFF \
  -DABSL_ENABLE_INSTALL=ON -DCMAKE_INSTALL_PREFIX="$prefix" >&2
cmake --build "$work/build" -j "${MARTIANDICE_JOBS:-$(nproc)}" >&2
rm -rf "$prefix"
cmake --install "$work/build" >&2
touch "$prefix/.complete"
echo "absl-wasm: installed at $prefix" >&2
echo "$prefix"
