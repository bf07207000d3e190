#!/usr/bin/env bash
# SpMV benchmark set (issue 3) on one device, side by side with cuSPARSE and ViennaCL:
# generates the matrices with `lockstep gen`, tunes each (fp64; fp32 too), then runs the
# anchors on the same files. Needs LOCKSTEP (the binary) and OUT; ANCHORS (a folder with
# cuda_anchors and opencl_anchors) is optional. EXHAUSTIVE="names" tunes those exhaustively.
set -uo pipefail
: "${LOCKSTEP:?}" "${OUT:?}"
dir=${MATRIX_DIR:-/tmp/lockstep-bench}
mkdir -p "$dir"
log="$OUT/spmv.txt"
declare -A spec=(
  [laplace2d_2048]="laplace2d 2048" [laplace2d_4096]="laplace2d 4096"
  [uniform_1m_16]="uniform 1048576 16" [powerlaw_1m]="powerlaw 1048576 1.8"
  [dense_10000_1000]="dense 10000 1000" [laplace3d_160]="laplace3d 160"
  [banded_1m_8]="banded 1048576 8")
names=${NAMES:-"laplace2d_2048 uniform_1m_16 powerlaw_1m dense_10000_1000 laplace3d_160 banded_1m_8 laplace2d_4096"}
files=()
for n in $names; do
  [[ -f "$dir/$n.mtx" ]] || "$LOCKSTEP" gen ${spec[$n]} -o "$dir/$n.mtx" --seed 1 >/dev/null
  files+=("$dir/$n.mtx")
done
for f in ${SHARED_MATRICES:-}; do files+=("$f"); done
for f in "${files[@]}"; do
  n=$(basename "$f" .mtx)
  extra=""
  [[ " ${EXHAUSTIVE:-} " == *" $n "* ]] && extra="--exhaustive"
  "$LOCKSTEP" tune "$f" --precision double $extra --budget "${BUDGET:-20}" --json "$OUT/tune_${n}_double.json" 2>/dev/null | tail -1 | tee -a "$log"
  if [[ " ${FP32:-laplace2d_2048 powerlaw_1m uniform_1m_16 dense_10000_1000} " == *" $n "* ]]; then
    "$LOCKSTEP" tune "$f" --precision float --budget "${BUDGET:-20}" 2>/dev/null | tail -1 | tee -a "$log"
  fi
  "$LOCKSTEP" spmv "$f" --kernel auto --verify | tee -a "$log"
done
if [[ -n "${ANCHORS:-}" ]]; then
  small=(); for f in "${files[@]}"; do [[ "$f" == *laplace2d_4096* ]] || small+=("$f"); done
  [[ -x "$ANCHORS/cuda_anchors" ]] && "$ANCHORS/cuda_anchors" spmv "${files[@]}" | tee -a "$log"
  [[ -x "$ANCHORS/opencl_anchors" ]] && OPENCL_ANCHOR_DEVICE=NVIDIA timeout 240 "$ANCHORS/opencl_anchors" spmv "${small[@]}" | tee -a "$log"
fi
# A solver linking the library: conjugate gradients, time per iteration.
[[ -f "$dir/laplace2d_512.mtx" ]] || "$LOCKSTEP" gen laplace2d 512 -o "$dir/laplace2d_512.mtx" >/dev/null
"$LOCKSTEP" cg "$dir/laplace2d_512.mtx" --tol 1e-8 | tail -1 | tee -a "$log"
