#!/usr/bin/env bash
# cli.sh BROOK CXX INCLUDE_DIR LIB_DIR BACKEND: what `brook cc` promises on
# its command line (spec/CLI.md): a file with errors gives `brook check`'s
# diagnostics, exit 1 and no output files; -o DIR/NAME writes DIR/NAME.h and
# DIR/NAME.cpp; several files make one program whose .br main gets argc and
# whose exit status is the program's; a second run compiles nothing (the
# disk cache); -I and -D options reach the program; two files translated
# apart share a header's struct.
set -u
brook=$1 cxx=$2 include=$3 libdir=$4 backend=$5
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "cli.sh: $*"; exit 1; }
cd "$here/programs" || exit 2

"$brook" check bad.br 2>"$tmp/check.err"
"$brook" cc -o "$tmp/bad/bad" bad.br 2>"$tmp/cc.err"; status=$?
[ $status -eq 1 ] || fail "brook cc of a file with errors exited $status, not 1"
diff -u "$tmp/check.err" "$tmp/cc.err" || fail "brook cc's diagnostics differ from brook check's"
[ ! -e "$tmp/bad" ] || fail "brook cc wrote output for a file with errors"

"$brook" cc -o "$tmp/gen/both" kern.br prog.br || fail "brook cc failed"
[ -f "$tmp/gen/both.h" ] && [ -f "$tmp/gen/both.cpp" ] || fail "-o gen/both did not write gen/both.h and gen/both.cpp"
grep -q '^float offset(float x);' "$tmp/gen/both.h" || fail "no C++ declaration of the host function offset"
grep -q '^void twice(const brook::Stream<float>& a, const brook::Stream<float>& b);' "$tmp/gen/both.h" ||
  fail "no C++ declaration of the kernel twice"
"$cxx" -std=c++20 -O0 -I "$include" "$tmp/gen/both.cpp" -o "$tmp/both" -L "$libdir" -lbrook -Wl,-rpath,"$libdir" ||
  fail "the generated C++ does not compile"

# -I and -D reach the program, which finds its includes from any folder.
"$brook" cc -I inc -DOFF=1 -o "$tmp/gen/incl" incl.br || fail "brook cc -I -D failed"
"$cxx" -std=c++20 -O0 -I "$include" "$tmp/gen/incl.cpp" -o "$tmp/incl" -L "$libdir" -lbrook -Wl,-rpath,"$libdir" ||
  fail "the generated C++ of incl.br does not compile"
out=$(cd "$tmp" && BROOK_BACKEND=$backend XDG_CACHE_HOME="$tmp/cache-incl" ./incl)
[ "$out" = "4.00 7.00 " ] || fail "incl.br printed: $out"

# The generated program holds the files the .br file #included: built from a
# copy whose headers are then deleted, it still runs, and prints what they said.
mkdir -p "$tmp/copy" && cp -r incl.br inc "$tmp/copy/" || fail "cannot copy incl.br"
(cd "$tmp/copy" && "$brook" cc -I inc -DOFF=1 -o "$tmp/gen/incl_copy" incl.br) || fail "brook cc of the copy failed"
rm -r "$tmp/copy"
"$cxx" -std=c++20 -O0 -I "$include" "$tmp/gen/incl_copy.cpp" -o "$tmp/incl_copy" -L "$libdir" -lbrook \
  -Wl,-rpath,"$libdir" || fail "the generated C++ of the copied incl.br does not compile"
out=$(cd / && BROOK_BACKEND=$backend XDG_CACHE_HOME="$tmp/cache-incl" "$tmp/incl_copy" 2>&1)
[ "$out" = "4.00 7.00 " ] || fail "incl.br without its headers printed: $out"

# Structs, vectors, a gather, a keyword-named constant, a float4 reduction.
"$brook" cc -o "$tmp/gen/types" types.br || fail "brook cc types.br failed"
grep -q "^// first(): not callable from C++" "$tmp/gen/types.h" || fail "no note that first() takes a pointer"
"$cxx" -std=c++20 -O0 -Wall -Wextra -Werror -I "$tmp/gen" -I "$include" types_main.cpp "$tmp/gen/types.cpp" \
  -o "$tmp/types" -L "$libdir" -lbrook -Wl,-rpath,"$libdir" || fail "types_main.cpp does not build"
out=$(BROOK_BACKEND=$backend XDG_CACHE_HOME="$tmp/cache-types" "$tmp/types")
[ "$out" = $'131 161 191 221\n110.5 120.5 130.5 140.5\n241.5 281.5 321.5 361.5' ] || fail "types_main printed: $out"

# Two .br files, each through its own `brook cc` (as a Makefile runs brcc per
# file), sharing a header's typedef'd anonymous struct: one type, so the
# prototype in pair_main.br is the kernel pair_kern.br defines, whichever
# file's sources the program loads first (link order).
"$brook" cc -o "$tmp/gen/pair_kern" pair_kern.br && "$brook" cc -o "$tmp/gen/pair_main" pair_main.br ||
  fail "brook cc of pair_kern.br or pair_main.br failed"
for order in "pair_kern pair_main" "pair_main pair_kern"; do
  set -- $order
  "$cxx" -std=c++20 -O0 -I "$include" "$tmp/gen/$1.cpp" "$tmp/gen/$2.cpp" -o "$tmp/pair" -L "$libdir" -lbrook \
    -Wl,-rpath,"$libdir" || fail "pair_kern and pair_main ($order) do not build"
  out=$(BROOK_BACKEND=$backend XDG_CACHE_HOME="$tmp/cache-pair" "$tmp/pair" 2>&1)
  [ "$out" = $'0 0\n10 1\n20 2' ] || fail "pair_kern and pair_main ($order) printed: $out"
done

export XDG_CACHE_HOME="$tmp/cache" BROOK_BACKEND=$backend
expected=$'2.00 4.00 6.00 8.00 \n3 101.0'
for run in 1 2; do
  out=$("$tmp/both" one two); status=$?
  [ $status -eq 3 ] || fail "run $run: exit status $status, not main's 3"
  [ "$out" = "$expected" ] || fail "run $run printed: $out"
  find "$tmp/cache" -type f -printf '%p %T@\n' 2>/dev/null | sort >"$tmp/cache.$run"
done
[ -s "$tmp/cache.1" ] || fail "the first run left nothing in the disk cache"
diff -u "$tmp/cache.1" "$tmp/cache.2" || fail "the second run compiled again"

# The default header's two halves, chosen by what the host included first: a
# Brook+ host (brook/Stream.h first) gets Brook+'s functor for any output
# folder; a host that includes only the header gets the embedding API
# outside brookgenfiles/ (and inside it for a .br with host code, like
# kern.br); BROOK_CC_BROOKPLUS chooses Brook+ regardless.
"$brook" cc -o "$tmp/halves/gen/kern" kern.br && "$brook" cc -o "$tmp/halves/brookgenfiles/kern" kern.br ||
  fail "brook cc kern.br for the halves failed"
cat >"$tmp/halves/plus.cpp" <<'EOF2'
#include <brook/Stream.h>
#include "kern.h"
static_assert(sizeof(__twice) > 0, "Brook+'s functor class");
void use(brook::Stream<float>& a, brook::Stream<float>& b) { twice(a, b); }
EOF2
cat >"$tmp/halves/embed.cpp" <<'EOF2'
#include "kern.h"
void use(const brook::Stream<float>& a, const brook::Stream<float>& b) { twice(a, b); }
float use2() { return offset(1.0f); }
EOF2
for dir in gen brookgenfiles; do
  "$cxx" -std=c++20 -fsyntax-only -I "$include" -I "$tmp/halves/$dir" "$tmp/halves/plus.cpp" ||
    fail "a Brook+ host of $dir/kern.h does not compile"
  "$cxx" -std=c++20 -fsyntax-only -I "$include" -I "$tmp/halves/$dir" "$tmp/halves/embed.cpp" ||
    fail "an embedding host of $dir/kern.h alone does not compile"
done
sed 's|#include <brook/Stream.h>|#define BROOK_CC_BROOKPLUS|' "$tmp/halves/plus.cpp" >"$tmp/halves/forced.cpp"
"$cxx" -std=c++20 -fsyntax-only -I "$include" -I "$tmp/halves/gen" "$tmp/halves/forced.cpp" ||
  fail "BROOK_CC_BROOKPLUS did not choose Brook+'s bindings"

# A host function C++ cannot call (pointer parameters) is named in a warning
# at its definition, not silently left out; the others are still declared.
"$brook" cc -o "$tmp/gen/host_ptr" host_ptr.br 2>"$tmp/host_ptr.err" || fail "brook cc host_ptr.br failed"
grep -q "^host_ptr.br:3:5: warning: host function 'doubleAll' is left out of the generated C++ (not callable from C++): parameter 'in' has type 'float\*'" \
  "$tmp/host_ptr.err" || fail "no warning for doubleAll: $(cat "$tmp/host_ptr.err")"
[ "$(wc -l <"$tmp/host_ptr.err")" -eq 1 ] || fail "more than one warning: $(cat "$tmp/host_ptr.err")"
grep -q '^float half(float x);' "$tmp/gen/host_ptr.h" || fail "half() is not declared"

# brcc's flags from SDK and BrookGPU makefiles are accepted and change nothing:
# the same files as without them, before or after the .br file.
"$brook" cc -o "$tmp/flags/kern" kern.br && cp "$tmp/flags/kern.h" "$tmp/flags/plain.h" || fail "brook cc kern.br failed"
for flags in "-r" "-pp" "-e" "-a" "-c" "-k" "-p cpu" "-p cal -pp -r" "-k -n -t -y -A -N -v -d" "-w 512"; do
  # shellcheck disable=SC2086
  "$brook" cc $flags -o "$tmp/flags/kern" kern.br 2>"$tmp/flags.err" || fail "brook cc $flags: $(cat "$tmp/flags.err")"
  [ ! -s "$tmp/flags.err" ] || fail "brook cc $flags printed: $(cat "$tmp/flags.err")"
  cmp -s "$tmp/flags/plain.h" "$tmp/flags/kern.h" || fail "brook cc $flags changed the header"
  # shellcheck disable=SC2086
  "$brook" cc --brookplus -o "$tmp/flags/after" kern.br $flags || fail "brook cc --brookplus kern.br $flags failed"
done
"$brook" cc -q kern.br 2>"$tmp/flags.err" && fail "brook cc accepted an unknown option -q"
grep -q "unknown option '-q'" "$tmp/flags.err" || fail "brook cc -q said: $(cat "$tmp/flags.err")"
echo OK
