#!/usr/bin/env bash
# install_check.sh BUILD_DIR SOURCE_DIR CXX: installs brook into a fresh prefix
# and checks what a C++ user gets: only the public headers, libbrook.so with
# a soname and no LLVM or OpenCL symbols it needs from its user, a pkg-config
# file that builds examples/embed/main.cpp with a plain compiler command, and
# the program running against the installed library.
set -euo pipefail
build=$1 src=$2 cxx=$3
source "$src/tests/tools/fresh_install.sh"
fresh_install "$build" install-check

# Headers: include/brook/ only, every one of them from include/brook/ in the source.
while IFS= read -r h; do
  rel=${h#"$prefix/include/"}
  [[ $rel == brook/* ]] || fail "installed a header outside include/brook/: $rel"
  [[ -f "$src/include/$rel" ]] || fail "installed a header that is not public: $rel"
done < <(find "$prefix/include" -type f)

lib=$(find "$prefix" -name 'libbrook.so.*.*.*' -type f | head -1)
[[ -n $lib ]] || fail "no versioned libbrook.so installed"
[[ ! -e $(dirname "$lib")/libbrook.a ]] || fail "a static libbrook.a is installed too"
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[[ $soname == libbrook.so.* ]] || fail "libbrook.so has no soname (got '$soname')"
[[ -e $(dirname "$lib")/$soname ]] || fail "the soname link $soname is not installed"

# pkg-config and a plain compiler command, as a Makefile would build it.
export PKG_CONFIG_PATH="$(dirname "$lib")/pkgconfig"
flags=$(pkg-config --cflags --libs brook)
"$cxx" -std=c++20 -O1 "$src/examples/embed/main.cpp" -o "$root/embed_pc" $flags \
  -Wl,-rpath,"$(dirname "$lib")" || fail "the example does not build with pkg-config's flags: $flags"
out=$("$root/embed_pc")
[[ $out == *OK* ]] || fail "the pkg-config-built example printed: $out"
echo "$soname $(du -k "$lib" | cut -f1) KiB, brook $(du -k "$prefix/bin/brook" | cut -f1) KiB"
echo OK
