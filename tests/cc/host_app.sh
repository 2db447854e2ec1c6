#!/usr/bin/env bash
# host_app.sh APP_DIR BROOK CXX INCLUDE_DIR LIB_DIR BACKEND...: what the build
# of a C++-hosted BrookGPU application or Brook+ sample does with brcc
# replaced by `brook cc`: translate APP_DIR/kernels.br into
# brookgenfiles/kernels.{h,cpp} (with the options in APP_DIR/cc.flags, e.g.
# --brookplus), compile them with APP_DIR/main.cpp against the library, and run
# the program on each backend; stdout must equal APP_DIR/main.out.
set -euo pipefail
here=$(cd "$1" && pwd) brook=$2 cxx=$3 include=$4 lib=$5
shift 5
flags=()
[ -f "$here/cc.flags" ] && read -r -a flags < "$here/cc.flags"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$brook" cc "${flags[@]}" -o brookgenfiles/kernels "$here/kernels.br"
"$cxx" -std=c++20 -O1 -Wall -Wextra -Werror -I"$include" -I"$here" -Ibrookgenfiles "$here/main.cpp" \
  brookgenfiles/kernels.cpp -o app -L"$lib" -lbrook -Wl,-rpath,"$lib"
for backend in "$@"; do
  BROOK_BACKEND=$backend ./app > out.txt
  diff -u "$here/main.out" out.txt || { echo "differs on $backend"; exit 1; }
done
echo OK
