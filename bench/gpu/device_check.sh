#!/usr/bin/env bash
# device_check.sh BUILD OUT [RUNS]: the OpenCL backend on a lent GPU machine, in
# one call (bench/gpu/README.md says how it is carried there).
#   1. finds the GPU's OpenCL driver (the image ships the vendor library but
#      maybe no ICD file) and lists the devices brook sees;
#   2. runs every conformance program and example on `--backend opencl` against
#      its expected output, as ctest does (tests/tools/golden.sh, example.sh);
#   3. times the nine whole programs against hand-written OpenCL (whole_bench.py)
#      and the per-launch cost of a 1,000-element kernel;
#   4. keeps one `--profile` of each float-idiom workload.
# Everything lands in OUT; a short summary is printed last.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd) out=$2 runs=${3:-3}
mkdir -p "$out"
brook=$build/cli/brook
export XDG_CACHE_HOME=/tmp/brook-cache
jobs=$(nproc)

# 1. The driver. ocl-icd reads OCL_ICD_VENDORS, a folder of .icd files naming
# vendor libraries; point it at the NVIDIA library wherever the image has it.
icd=/tmp/icd; mkdir -p $icd
lib=$(find /usr/local/nvidia /usr/lib /usr/lib64 /usr/local/cuda* -name 'libnvidia-opencl.so*' 2>/dev/null | sort | head -1)
if [ -n "$lib" ]; then
  echo "$lib" >$icd/nvidia.icd
  export OCL_ICD_VENDORS=$icd  # the GPU alone, so it is device 0 on both sides
fi
{
  echo "== $(date -u) on $(hostname), $(nproc) cores"
  nvidia-smi -L 2>&1
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv 2>&1
  echo "ICD: $(cat /etc/OpenCL/vendors/*.icd $icd/*.icd 2>/dev/null | tr '\n' ' ')"
  ldd "$brook" | grep "not found"
  "$brook" devices 2>&1
} | tee "$out/info.txt"
[ -n "${ANY_DEVICE:-}" ] || "$brook" devices 2>&1 | grep -qi nvidia || { echo "no NVIDIA OpenCL device; stopping"; exit 3; }

# 2. Conformance and examples on the GPU.
conf=$out/conformance.txt; : >"$conf"
t0=$(date +%s)
find "$root/tests/conformance" -name '*.br' | sort |
  xargs -P "$jobs" -I{} bash -c 'log=$(bash "$1/tests/tools/golden.sh" run-opencl "$2" "$3" 2>&1) || printf "FAIL %s\n%s\n" "$3" "$log"' _ "$root" "$brook" {} >>"$conf"
for prog in "$root"/examples/*.br; do
  log=$(bash "$root/tests/tools/example.sh" "$brook" "$prog" opencl interp 2>&1) || printf "FAIL %s\n%s\n" "$prog" "$log" >>"$conf"
done
total=$(find "$root/tests/conformance" -name '*.br' | wc -l)
examples=$(ls "$root"/examples/*.br | wc -l)
echo "conformance + examples: $((total + examples)) programs, $(grep -c '^FAIL' "$conf") failed, $(( $(date +%s) - t0 )) s" | tee -a "$out/info.txt"

# 3. Whole programs and launches.
python3 "$root/bench/gpu/whole_bench.py" "$build" "$runs" 2>"$out/bench.err" | tee "$out/bench.txt"
python3 "$root/bench/gpu/whole_bench.py" --launch "$build" 100000 3 | tee "$out/launch.txt"

# 4. Where the time goes, per workload.
for w in saxpy sum blur3x3 mandelbrot sgemm black_scholes invert_grey winograd sgm_path; do
  echo "== $w"; "$brook" run --backend opencl --profile "$root/bench/whole/$w.br" 2>&1
done >"$out/profile.txt"

echo "== summary"
grep '^FAIL' "$conf" | head -40
cat "$out/info.txt" | tail -1
