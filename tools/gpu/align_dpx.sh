#!/usr/bin/env bash
# Issue 34's long-pair run on the lent GPU machine, from the repository root, after
# tools/gpu/prepare.sh and tools/bench/build_old.sh filled .carry/ here (lockstep, lockstep_tests,
# lockstep-old, opencl-env.sh, genomes/). Registers the NVIDIA OpenCL driver, prints the device
# (compute capability and dpx=1 expected on an H100), runs the alignment tests and the
# device-free kernel-build test on the GPU (DPX path) into $OUT/tests-gpu.txt, then
# tools/bench/align.sh's case dpx: the old
# binary's pipeline, the new pipeline in 16-bit lanes and in 32 bits, each with DPX and with the
# portable path (LOCKSTEP_DPX=0), at 200k x 180k and 1M x 1M, a shape sweep at 1M, and the SASS
# census of the pipeline kernels ($OUT/align.txt, $OUT/align_sass.txt). About 3-4 minutes.
# Use (device run, carry [".carry"], timeout 300): bash tools/gpu/align_dpx.sh
set -uo pipefail
root=$(pwd)
carry="$root/.carry"
bash "$carry/opencl-env.sh"
export XDG_CACHE_HOME=/tmp/lockstep-cache LOCKSTEP_DEVICE=${LOCKSTEP_DEVICE:-nvidia}
export LOCKSTEP_SOURCE_DIR="$root" LOCKSTEP_CLI="$carry/lockstep"
export PATH="$PATH:/usr/local/cuda/bin"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/device.txt"
"$carry/lockstep" devices | tee -a "$OUT/device.txt"
timeout "${TEST_TIMEOUT:-100}" "$carry/lockstep_tests" -tc='align*,kernel builds: every family*' \
  > "$OUT/tests-gpu.txt" 2>&1
echo "tests rc=$?"
tail -4 "$OUT/tests-gpu.txt"
old=()
[[ -x "$carry/lockstep-old" ]] && old=(OLD="$carry/lockstep-old")
env "${old[@]}" LOCKSTEP="$carry/lockstep" GENOMES="$carry/genomes" CASES=dpx OUT="$OUT" \
  timeout "${BENCH_TIMEOUT:-170}" bash tools/bench/align.sh
echo "bench rc=$?"
cat "$OUT/align.txt"
[[ -f "$OUT/align_sass.txt" ]] && head -80 "$OUT/align_sass.txt"
exit 0
