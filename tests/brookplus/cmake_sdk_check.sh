#!/usr/bin/env bash
# cmake_sdk_check.sh BUILD_DIR SOURCE_DIR CXX BACKEND...: installs brook into
# a fresh prefix and builds tests/brookplus/cmake_sdk (an SDK-layout Brook+
# host whose only brook include is "brookgenfiles/copy.h") with the installed
# brook_add_kernels; runs it on every backend given; stdout must equal its
# main.out.
set -euo pipefail
build=$1 src=$2 cxx=$3
shift 3
source "$src/tests/tools/fresh_install.sh"
fresh_install "$build" brookplus-cmake-sdk-check
dir="$src/tests/brookplus/cmake_sdk" out="$root/app"
cmake -S "$dir" -B "$out" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null ||
  fail "does not configure"
cmake --build "$out" >/dev/null || fail "does not build with brook_add_kernels"
[[ -f "$out/brookgen/app/brookgenfiles/copy.h" ]] || fail "no brookgenfiles/copy.h in the build tree"
grep -q "Brook+" "$out/brookgen/app/brookgenfiles/copy.h" || fail "copy.h is not Brook+'s bindings"
for backend in "$@"; do
  printed=$(cd "$out" && BROOK_BACKEND=$backend ./app) || fail "failed on $backend"
  diff -u "$dir/main.out" <(printf '%s\n' "$printed") >&2 || fail "printed something else on $backend"
done
echo OK
