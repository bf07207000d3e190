#!/usr/bin/env bash
# Compiles every kernel build the library can ask for (`lockstep kernels --list`, the kernel
# registry: each family's own -D sets, tuner spaces and barrier strategies) ahead of time, so that
# code no AMD or Intel GPU runs here still compiles there:
#   gfx90a (MI200) and gfx942 (MI300), WAVE_WIDTH 64; gfx1100 (RDNA3) in wave32 with
#   WAVE_WIDTH 32 and in wave64 with WAVE_WIDTH 64: OpenCL C -> GCN assembly with ROCm's device
#   libraries (rocm-device-libs), so builtins are inlined and register counts are real;
#   SPIR-V (Intel's OpenCL): clang-15 -target spir64 -> llvm-spirv-15 -> spirv-val.
# Any compile or validation error fails (exit 1, naming the build and printing the compiler's
# messages). Prints a table per (kernel, target): VGPRs/AGPRs, SGPRs, scratch bytes, and waves
# per SIMD from the VGPR count (tools/portability/gcn_table.py holds the formulas).
# Usage: tools/portability/compile_kernels.sh [BUILD_DIR (default build)] [OUT_DIR]
#   COMPILE_TARGETS="gfx90a spirv" limits the pass to those targets (default: all five).
#   COMPILE_FILES="search.cl ..." limits it to the builds of those kernel files (default: all).
#   FULL_TARGETS (default "gfx90a spirv") compile every build; the other targets a representative
#   subset: per (family, kernel file) at most SUBSET_PER_FILE builds (default 6), spread evenly
#   over the list (its first among them). FULL_TARGETS=all compiles everything.
# Compilers: clang-16 (gfx90a, gfx1100); clang-19 for gfx942, which clang-16 does not know.
# rocm-device-libs 5.2 lacks the ISA-version file of gfx942 and gfx1100: it is generated here
# (one constant, __oclc_ISA_version, as the ROCm sources define it).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
out=${2:-$(mktemp -d)}
jobs=$(nproc 2>/dev/null || echo 2)
start=$SECONDS
for tool in clang-16 clang-19 clang-15 llvm-spirv-15 spirv-val python3; do
  command -v "$tool" >/dev/null || { echo "compile_kernels: $tool not found (.ci/run installs it: tools/install_packages.sh)" >&2; exit 1; }
done
libs=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
[[ -f $libs/opencl.bc ]] || { echo "compile_kernels: $libs/opencl.bc missing (rocm-device-libs)" >&2; exit 1; }
dl="$out/device-libs"
mkdir -p "$dl" "$out/asm" "$out/spv" "$out/log"
ln -sf "$libs"/*.bc "$dl/"
# Each by the compiler that links it (their code-object-version module flags must agree).
for v in 942:9402:clang-19 1100:11000:clang-16; do
  IFS=: read -r isa value cc <<< "$v"
  [[ -f "$libs/oclc_isa_version_$isa.bc" ]] && continue
  echo "const __constant int __oclc_ISA_version = $value;" > "$dl/isa_$isa.cl"
  $cc -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -nogpulib -fvisibility=protected \
    -emit-llvm -c "$dl/isa_$isa.cl" -o "$dl/oclc_isa_version_$isa.bc"
done

# target name | lockstep kernels profile | compiler and its target options
targets=(
  "gfx90a|--vendor amd --wave-width 64 --opencl-c 2.0|clang-16 -target amdgcn-amd-amdhsa -mcpu=gfx90a"
  "gfx942|--vendor amd --wave-width 64 --opencl-c 2.0|clang-19 -target amdgcn-amd-amdhsa -mcpu=gfx942"
  "gfx1100|--vendor amd --wave-width 32 --opencl-c 2.0|clang-16 -target amdgcn-amd-amdhsa -mcpu=gfx1100"
  "gfx1100w64|--vendor amd --wave-width 64 --opencl-c 2.0|clang-16 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -mwavefrontsize64"
  "spirv|--vendor intel --opencl-c 3.0|spirv"
)
jobfile="$out/jobs.txt"
: > "$jobfile"
for t in "${targets[@]}"; do
  IFS='|' read -r name profile cc <<< "$t"
  [[ -n "${COMPILE_TARGETS:-}" && " $COMPILE_TARGETS " != *" $name "* ]] && continue
  # shellcheck disable=SC2086
  "$build/lockstep" kernels --list $profile |
    awk -F'\t' -v files=" ${COMPILE_FILES:-} " 'files == "  " || index(files, " " $2 " ")' \
    > "$out/list_$name.tsv"
  all=$(wc -l < "$out/list_$name.tsv")
  full=${FULL_TARGETS:-gfx90a spirv}
  if [[ "$full" == all || " $full " == *" $name "* ]]; then
    cp "$out/list_$name.tsv" "$out/pick_$name.tsv"
  else  # builds i = 0..c-1 of a (family, file) with c builds: those where floor(i*k/c) steps
    awk -F'\t' -v k="${SUBSET_PER_FILE:-6}" '
      { key = $1 "\t" $2; row[NR] = $0; f[NR] = key; count[key]++ }
      END { for (r = 1; r <= NR; ++r) { key = f[r]; i = seen[key]++; c = count[key]
              if (c <= k || i == 0 || int(i * k / c) != int((i - 1) * k / c)) print row[r] } }' \
      "$out/list_$name.tsv" > "$out/pick_$name.tsv"
  fi
  n=0
  while IFS=$'\t' read -r family file options; do
    n=$((n + 1))
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$name-$n" "$cc" "$family" "$file" "$options" >> "$jobfile"
  done < "$out/pick_$name.tsv"
  echo "compile_kernels: $name: $n of $all builds"
done

# One build: its options as the runtime passes them (no -cl-std: the OpenCL C 1.2 default).
compile_one() {
  IFS=$'\t' read -r name id cc family file options <<< "$1"
  local std="-cl-std=CL1.2"
  [[ "$options" == *-cl-std=* ]] && std=""
  local log="$OUT/log/$id.txt"
  # shellcheck disable=SC2086
  if [[ "$cc" == spirv ]]; then
    local spv="$OUT/spv/$id.spv"
    # Unoptimized IR: llvm-spirv 15 emits -O2 IR's blocks out of dominance order (invalid
    # SPIR-V; SPIRV-LLVM-Translator #205, fixed after 15.0.0); the driver optimizes SPIR-V.
    if ! { clang-15 -x cl $std -target spir64 -Xclang -finclude-default-header -I "$ROOT/cl" \
             $options -O2 -Xclang -disable-llvm-passes -emit-llvm -c "$ROOT/cl/$file" -o "$spv.bc" &&
           llvm-spirv-15 --spirv-max-version=1.2 "$spv.bc" -o "$spv" &&
           { spirv-val --target-env opencl2.2 "$spv" ||
             # 64-bit atomics (the distributed BFS's edge counters) need the device's
             # cl_khr_int64_base_atomics, which spirv-val's OpenCL 2.2 Full Profile does not
             # assume: such a module is validated as universal SPIR-V 1.2 instead.
             { spirv-dis "$spv" | grep -q 'OpCapability Int64Atomics' &&
               spirv-val --target-env spv1.2 "$spv"; }; }; } > "$log" 2>&1; then
      echo "FAIL	$name	$family	$file	$options	$log"; return 0
    fi
    rm -f "$spv.bc"
    echo "OK	$name	$family	$file	$options	$spv"
  else
    local asm="$OUT/asm/$id.s"
    if ! $cc --rocm-device-lib-path="$OUT/device-libs" -x cl $std -Xclang -finclude-default-header \
           -I "$ROOT/cl" $options -O3 -S "$ROOT/cl/$file" -o "$asm" > "$log" 2>&1; then
      echo "FAIL	$name	$family	$file	$options	$log"; return 0
    fi
    echo "OK	$name	$family	$file	$options	$asm"
  fi
}
export -f compile_one
export OUT="$out" ROOT="$root"
tr '\n' '\0' < "$jobfile" | xargs -0 -P"$jobs" -I{} bash -c 'compile_one "$1"' _ {} > "$out/results.tsv"
compile_s=$((SECONDS - start))
status=0
python3 "$root/tools/portability/gcn_table.py" "$out/results.tsv" || status=$?
echo "compile_kernels: $(wc -l < "$out/results.tsv") compiles with $jobs jobs in ${compile_s} s" \
     "(table in $((SECONDS - start - compile_s)) s); outputs in $out"
exit $status
