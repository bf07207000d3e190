#!/usr/bin/env bash
# Prototypes measured once and not kept (issue 22; BENCHMARKS.md, third session): each patch
# changes one kernel file of a copy of cl/, which the same binary then runs through
# LOCKSTEP_KERNEL_DIR, beside the unchanged kernels in one command.
#   u16_minplus.patch         the i32 Floyd-Warshall path as two u16 distances per int (32-bit add,
#                             PTX min.u16x2; sm_90): throughput only, its distances are not the
#                             graph's
#   all_to_all_barrier.patch  lock-free's slot as an all-to-all barrier (every group watches every
#                             group's generation word)
# Use (on the GPU machine, after tools/gpu/prepare.sh): LOCKSTEP=.carry/lockstep OUT=/tmp/out
#     [ANCHORS=.carry] tools/bench/proto/run.sh
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP}" "${OUT:?set OUT}"
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$OUT"
work=$(mktemp -d)
for p in u16_minplus all_to_all_barrier; do
  cp -r "$root/cl" "$work/$p" && patch -s -d "$work/$p" -p1 < "$here/$p.patch"
done
L=$LOCKSTEP g="--random 8192,0.05,1"
c="--algorithm generalized --tile 32 --K 4 --thread-rows 8 --thread-tile 8 --unroll 1 --overlap 1 --repeat 3"
for i in 1 2; do
  echo "f32 $($L apsp $g $c 2>&1 | tail -1)"
  echo "i32 $($L apsp $g $c --type i32 2>&1 | tail -1)"
  echo "u16x2-proto $(LOCKSTEP_KERNEL_DIR=$work/u16_minplus $L apsp $g $c --type i32 2>&1 | tail -1)"
done | tee "$OUT/proto_apsp.txt"
{
  [[ -x "${ANCHORS:-}/cuda_anchors" ]] && "$ANCHORS/cuda_anchors" barrier | grep -E "groups=(132|264|1056) "
  for cfg in "132 256" "256 256" "264 1024"; do
    set -- $cfg
    for s in lock grouped-lock lock-free; do
      $L bench barrier --barrier $s --groups $1 --local-size $2 --no-data --order acqrel-rspin \
        --stride 1 --rounds 20000 2>&1 | grep -v "^#"
    done
    LOCKSTEP_KERNEL_DIR=$work/all_to_all_barrier $L bench barrier --barrier lock-free --groups $1 \
      --local-size $2 --no-data --order acqrel-rspin --stride 1 --rounds 20000 2>&1 |
      grep -v "^#" | sed 's/^/all-to-all-proto /'
  done
} | tee "$OUT/proto_barrier.txt"
rm -rf "$work"
