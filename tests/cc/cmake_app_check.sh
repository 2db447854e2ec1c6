#!/usr/bin/env bash
# cmake_app_check.sh BUILD_DIR SOURCE_DIR CXX BACKEND...: installs brook into a
# fresh prefix and builds the Brook+ sample (tests/brookplus/cc) and the
# BrookGPU application (tests/cc/brookgpu) with tests/cc/cmake_app, whose
# brook_add_kernels call passes no options: the Brook+ host's #include
# "brook/Stream.h" must select Brook+'s bindings. Each runs on every backend
# given; stdout must equal the app's main.out.
set -euo pipefail
build=$1 src=$2 cxx=$3
shift 3
source "$src/tests/tools/fresh_install.sh"
fresh_install "$build" cc-cmake-app-check
for app in brookplus/cc cc/brookgpu; do
  dir="$src/tests/$app" out="$root/${app//\//_}"
  cmake -S "$src/tests/cc/cmake_app" -B "$out" -DAPP_DIR="$dir" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_CXX_COMPILER="$cxx" >/dev/null || fail "$app does not configure"
  cmake --build "$out" >/dev/null || fail "$app does not build with brook_add_kernels"
  for backend in "$@"; do
    printed=$(cd "$out" && BROOK_BACKEND=$backend ./app) || fail "$app failed on $backend"
    diff -u "$dir/main.out" <(printf '%s\n' "$printed") >&2 || fail "$app printed something else on $backend"
  done
done
echo OK
