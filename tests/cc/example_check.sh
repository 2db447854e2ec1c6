#!/usr/bin/env bash
# example_check.sh BUILD_DIR SOURCE_DIR CXX BACKEND...: installs brook into a
# fresh prefix (as tests/tools/install_check.sh does), builds examples/cxx
# both ways a C++ user would (CMake's brook_add_kernels, and its plain
# Makefile calling `brook cc` with pkg-config's flags) and runs each on every
# backend given: the output must equal examples/cxx/expected.out each time.
set -euo pipefail
build=$1 src=$2 cxx=$3
shift 3
source "$src/tests/tools/fresh_install.sh"
fresh_install "$build" cc-example-check
libdir=$(dirname "$(find "$prefix" -name 'libbrook.so' | head -1)")

cmake -S "$src/examples/cxx" -B "$root/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null ||
  fail "examples/cxx does not configure against the installed package"
cmake --build "$root/cmake" >/dev/null || fail "examples/cxx does not build with brook_add_kernels"
mkdir -p "$root/make"
PKG_CONFIG_PATH="$libdir/pkgconfig" make -s -C "$src/examples/cxx" OUT="$root/make" BROOK="$prefix/bin/brook" \
  CXX="$cxx" LDFLAGS="-Wl,-rpath,$libdir" >/dev/null ||
  fail "examples/cxx does not build with its Makefile"

for backend in "$@"; do
  for how in cmake make; do
    out=$(cd "$root" && BROOK_BACKEND=$backend "$root/$how/swarm") || fail "$how-built swarm failed on $backend: $out"
    diff -u "$src/examples/cxx/expected.out" <(printf '%s\n' "$out") >&2 ||
      fail "$how-built swarm printed something else on $backend"
  done
done
echo OK
