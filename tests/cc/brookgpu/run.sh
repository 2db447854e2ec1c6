#!/usr/bin/env bash
# run.sh BROOK CXX INCLUDE_DIR LIB_DIR BACKEND...: what a BrookGPU
# application's build does with brcc replaced by `brook cc`: translate
# kernels.br into brookgenfiles/kernels.{h,cpp}, compile them with the
# application's main.cpp (which declares the kernels in its own header, as
# BrookGPU applications do) against the library, and run it on each backend;
# stdout must equal main.out.
set -euo pipefail
brook=$1 cxx=$2 include=$3 lib=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$brook" cc -o brookgenfiles/kernels "$here/kernels.br"
"$cxx" -std=c++20 -O1 -Wall -Wextra -Werror -I"$include" -I"$here" "$here/main.cpp" brookgenfiles/kernels.cpp \
  -o app -L"$lib" -lbrook -Wl,-rpath,"$lib"
for backend in "$@"; do
  BROOK_BACKEND=$backend ./app > out.txt
  diff -u "$here/main.out" out.txt || { echo "differs on $backend"; exit 1; }
done
echo OK
