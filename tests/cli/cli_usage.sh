#!/usr/bin/env bash
# The `brook` command line of CLI.md: each case is a command, the exit status
# it must give and a fragment its output (stdout + stderr) must contain.
# Usage: cli_usage.sh BROOK SOURCE_DIR
set -u
brook=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
expect() {  # expect STATUS FRAGMENT -- command...
  local want=$1 fragment=$2; shift 3
  local out status
  out=$("$@" 2>&1 </dev/null); status=$?
  if [ "$status" != "$want" ] || [[ "$out" != *"$fragment"* ]]; then
    echo "FAIL: $* -> status $status (want $want), output:"; echo "$out" | head -5
    echo "  (wanted a line containing: $fragment)"
    fails=$((fails + 1))
  else
    passes=$((passes + 1))
  fi
}
printf 'int main(int argc, char** argv) { printf("%%d args, first %%s\\n", argc, argv[1]); return 0; }\n' > "$tmp/args.br"
printf 'int main() { return 3; }\n' > "$tmp/three.br"
printf '\xef\xbb\xbfprintf("after a BOM\\n");\n' > "$tmp/bom.br"
printf 'int x = ;\n' > "$tmp/bad.br"
head -c 4096 "$brook" > "$tmp/binary.br"

# `brook prog.br` is `brook run prog.br`; arguments follow the program.
expect 0 "2 args, first hello" -- "$brook" "$tmp/args.br" hello
expect 3 "" -- "$brook" "$tmp/three.br"
# Source files right after the program are more of its translation units;
# `--` ends them, so that a source file can be an argument.
printf 'int twice(int x);\nint main(int argc, char** argv) { printf("%%d %%d %%s\\n", twice(21), argc, argv[argc - 1]); return 0; }\n' > "$tmp/uses.br"
printf 'int twice(int x) { return 2 * x; }\n' > "$tmp/twice.c"
expect 0 "42 2 last" -- "$brook" run "$tmp/uses.br" "$tmp/twice.c" last
expect 0 "42 2 $tmp/twice.c" -- "$brook" run "$tmp/uses.br" "$tmp/twice.c" -- "$tmp/twice.c"
expect 0 "" -- "$brook" check "$tmp/uses.br" "$tmp/twice.c"
expect 1 "function 'twice' is declared but never defined" -- "$brook" run "$tmp/uses.br" -- "$tmp/twice.c"
# `run -` reads the program from stdin.
out=$(printf 'printf("%%d\\n", 6 * 7);\n' | "$brook" run - 2>&1); status=$?
if [ "$status" = 0 ] && [ "$out" = 42 ]; then passes=$((passes + 1)); else echo "FAIL: run - gave $status: $out"; fails=$((fails + 1)); fi
# --option=value and --option value are the same.
expect 0 "hello: OK" -- "$brook" run --backend=interp "$src/examples/hello.br"
expect 2 "unknown backend 'gpu'" -- "$brook" run --backend=gpu "$src/examples/hello.br"
expect 2 "takes no value" -- "$brook" run --profile=1 "$src/examples/hello.br"
expect 2 "unknown option '--fast'" -- "$brook" run --fast "$src/examples/hello.br"
# Per-command help lists the options.
expect 0 "--backend interp|jit|opencl" -- "$brook" run --help
expect 0 "-I DIR" -- "$brook" check --help
expect 0 "usage: brook devices" -- "$brook" devices --help
expect 0 "backends:" -- "$brook" --version
# `emit llvm FILE KERNEL` prints that kernel's module only (every function is
# named brook_entry, so the kernel is found by its header line).
if "$brook" --version | grep -q 'backends:.* jit'; then
  expect 0 "; kernel scale" -- "$brook" emit llvm "$src/examples/hello.br" scale
  expect 0 "; reduce sum" -- "$brook" emit llvm "$src/examples/hello.br" sum
  out=$("$brook" emit llvm "$src/examples/hello.br" scale 2>&1)
  if [[ "$out" != *"; reduce sum"* ]]; then passes=$((passes + 1)); else echo "FAIL: emit llvm scale also printed sum"; fails=$((fails + 1)); fi
  expect 2 "no kernel or reduction named 'nosuch'" -- "$brook" emit llvm "$src/examples/hello.br" nosuch
fi
# Usage errors are exit 2 with one line naming the problem.
expect 2 "is a directory" -- "$brook" run "$tmp"
expect 2 "is a directory" -- "$brook" check "$tmp"
expect 2 "is a directory" -- "$brook" repl "$tmp"
expect 2 "cannot open" -- "$brook" run "$tmp/nosuch.br"
expect 2 "unknown command 'rn'" -- "$brook" rn
# Environment variables are checked like the options they stand for.
expect 2 "BROOK_THREADS needs a non-negative number" -- env BROOK_THREADS=abc "$brook" run "$src/examples/hello.br"
expect 2 "BROOK_BACKEND='gpu'" -- env BROOK_BACKEND=gpu "$brook" run "$src/examples/hello.br"
expect 2 "BROOK_PROFILE must be 0 or 1" -- env BROOK_PROFILE=yes "$brook" run "$src/examples/hello.br"
# A binary file is one error; a UTF-8 byte-order mark is not part of the program.
expect 1 "is not a text file" -- "$brook" run "$tmp/binary.br"
lines=$("$brook" run "$tmp/binary.br" 2>&1 | wc -l)
if [ "$lines" -le 2 ]; then passes=$((passes + 1)); else echo "FAIL: binary input printed $lines lines"; fails=$((fails + 1)); fi
expect 0 "after a BOM" -- "$brook" run "$tmp/bom.br"
# A REPL fed from a pipe exits 1 after an error, as a script would.
out=$(printf 'int x = ;\n1 + 1\n' | "$brook" repl 2>&1); status=$?
if [ "$status" = 1 ] && [[ "$out" == *2* ]]; then passes=$((passes + 1)); else echo "FAIL: piped repl after an error gave $status"; fails=$((fails + 1)); fi
out=$(printf '1 + 1\n' | "$brook" repl 2>&1); status=$?
if [ "$status" = 0 ]; then passes=$((passes + 1)); else echo "FAIL: clean piped repl gave $status"; fails=$((fails + 1)); fi
expect 1 "expected expression" -- "$brook" run "$tmp/bad.br"
# The JIT is a plugin next to libbrook.so (or found from the executable):
# missing, it is a backend that cannot start (status 2); there but broken, a
# runtime error at the first use (status 1); never an abort. A program that
# never touches a stream does not need it.
if "$brook" --version | grep -q "^backends:.* jit"; then
  printf 'int main() { float a<4>; printf("made\\n"); return 0; }\n' > "$tmp/stream.br"
  printf 'int main() { printf("no streams\\n"); return 0; }\n' > "$tmp/nostream.br"
  printf 'not an ELF file\n' > "$tmp/broken.so"
  expect 2 "the jit backend's plugin $tmp/none.so is missing" -- env BROOK_JIT_PLUGIN="$tmp/none.so" "$brook" run --backend jit "$tmp/stream.br"
  expect 1 "runtime error: the jit backend's plugin could not be loaded" -- env BROOK_JIT_PLUGIN="$tmp/broken.so" "$brook" run --backend jit "$tmp/stream.br"
  expect 0 "no streams" -- env BROOK_JIT_PLUGIN="$tmp/broken.so" "$brook" run --backend jit "$tmp/nostream.br"
  expect 0 "jit backend: the jit backend's plugin could not be loaded" -- env BROOK_JIT_PLUGIN="$tmp/broken.so" "$brook" --version
  expect 0 "made" -- "$brook" run --backend jit "$tmp/stream.br"
fi

echo "cli_usage: $passes passed, $fails failed"
[ "$fails" = 0 ]
