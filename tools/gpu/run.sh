#!/usr/bin/env bash
# Runs on the lent GPU machine, from the repository root, after tools/gpu/prepare.sh filled
# .carry/ here. Registers the NVIDIA OpenCL driver, builds the CUDA anchors with nvcc, runs the
# whole doctest suite on the GPU, then the whole suite again on the machine's PoCL CPU device (a
# second OpenCL implementation, which has caught miscompiles), then every tools/bench/*.sh (or those named in $BENCH),
# writing everything under $OUT.
set -uo pipefail
root=$(pwd)
carry="$root/.carry"
bash "$carry/opencl-env.sh"
export LOCKSTEP_SOURCE_DIR="$root" LOCKSTEP_CLI="$carry/lockstep" LOCKSTEP="$carry/lockstep"
export ANCHORS="$carry" XDG_CACHE_HOME=/tmp/lockstep-cache
mkdir -p "$root/../shared" && cp -r "$carry/matrices" "$carry/graphs" "$carry/genomes" "$root/../shared/"
(nvcc -O3 -std=c++17 -arch=sm_90 "$carry/cuda_anchors.cu" -lcusparse -o "$carry/cuda_anchors" \
   > "$OUT/nvcc.log" 2>&1 || echo "nvcc failed" >> "$OUT/nvcc.log") &
nvcc_pid=$!
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/device.txt"
"$carry/lockstep" devices | tee -a "$OUT/device.txt"
export LOCKSTEP_DEVICE=${LOCKSTEP_DEVICE:-nvidia}
if [[ "${TESTS:-1}" == 1 ]]; then
  timeout "${TEST_TIMEOUT:-240}" "$carry/lockstep_tests" ${TEST_ARGS:-} > "$OUT/tests-gpu.txt" 2>&1
  echo "tests rc=$?"; tail -5 "$OUT/tests-gpu.txt"
fi
# Second implementation: the same binary on PoCL (platform "Portable Computing Language"; set
# POCL_DEVICE to an index or name to pick another, POCL_TESTS=0 to skip) -> tests-pocl.txt.
if [[ "${TESTS:-1}" == 1 && "${POCL_TESTS:-1}" == 1 ]]; then
  LOCKSTEP_DEVICE="${POCL_DEVICE:-portable}" timeout "${POCL_TEST_TIMEOUT:-420}" \
    "$carry/lockstep_tests" ${TEST_ARGS:-} > "$OUT/tests-pocl.txt" 2>&1
  rc=$?; echo "tests-pocl rc=$rc"; tail -5 "$OUT/tests-pocl.txt"
  # A Floyd-Warshall failure: run those cases again without any program cache, under each of
  # PoCL's work-group compilers, into the same file.
  if [[ $rc != 0 ]] && grep -q "TEST CASE: *apsp" "$OUT/tests-pocl.txt"; then
    for m in loopvec cbs; do
      echo "==== apsp again: LOCKSTEP_DISK_CACHE=0 POCL_KERNEL_CACHE=0 POCL_WORK_GROUP_METHOD=$m"
      LOCKSTEP_DEVICE="${POCL_DEVICE:-portable}" LOCKSTEP_DISK_CACHE=0 POCL_KERNEL_CACHE=0 \
        POCL_WORK_GROUP_METHOD=$m timeout 60 "$carry/lockstep_tests" -tc='apsp*' 2>&1 | tail -20
    done >> "$OUT/tests-pocl.txt"
  fi
fi
wait $nvcc_pid
for b in ${BENCH:-$(ls tools/bench/*.sh 2>/dev/null)}; do
  echo "== $b"; timeout "${BENCH_TIMEOUT:-200}" bash "$b"; echo "rc=$?"
done
# at most 8 files come back: pack the per-run JSON files into one archive
if ls "$OUT"/*.json >/dev/null 2>&1; then
  tar -czf "$OUT/json.tar.gz" -C "$OUT" $(cd "$OUT" && ls *.json) && rm -f "$OUT"/*.json
fi
# and each folder a bench wrote (e.g. OUT=$OUT/sort tools/bench/sort.sh) into DIR.tar.gz
for d in "$OUT"/*/; do
  [[ -d "$d" ]] || continue
  d=${d%/}
  tar -czf "$d.tar.gz" -C "$OUT" "$(basename "$d")" && rm -rf "$d"
done
