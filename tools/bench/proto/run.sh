#!/usr/bin/env bash
# Prototypes measured once and not kept (issue 22; BENCHMARKS.md, third session): each patch
# changes one kernel file of a copy of cl/, which the same binary then runs through
# LOCKSTEP_KERNEL_DIR, beside the unchanged kernels in one command.
#   u16_minplus.patch         the i32 Floyd-Warshall path as two u16 distances per int (32-bit add,
#                             PTX min.u16x2; sm_90): throughput only, its distances are not the
#                             graph's
#   all_to_all_barrier.patch  lock-free's slot as an all-to-all barrier (every group watches every
#                             group's generation word)
#   split_counter_barrier.patch  grouped-lock's slot as a split counter (session 6): group g adds 1
#                             with release to counter g % K (one 128-byte line each; K = SPLIT_K,
#                             2 in the patch, 4 and 8 made by sed here), everyone spins until each
#                             counter holds its round's count and acquires each; needs K <= the
#                             grouped-lock state's lines, ceil(G / ceil(sqrt(G))) (G >= 3)
# Use (on the GPU machine, after tools/gpu/prepare.sh): LOCKSTEP=.carry/lockstep OUT=/tmp/out
#     [ANCHORS=.carry] tools/bench/proto/run.sh
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP}" "${OUT:?set OUT}"
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$OUT"
work=$(mktemp -d)
for p in u16_minplus all_to_all_barrier split_counter_barrier; do
  cp -r "$root/cl" "$work/$p" && patch -s -d "$work/$p" -p1 < "$here/$p.patch"
done
for k in 4 8; do
  cp -r "$work/split_counter_barrier" "$work/split$k"
  sed -i "s/#define SPLIT_K 2/#define SPLIT_K $k/" "$work/split$k/barrier.cl"
done
mv "$work/split_counter_barrier" "$work/split2"
L=$LOCKSTEP g="--random 8192,0.05,1"
c="--algorithm generalized --tile 32 --K 4 --thread-rows 8 --thread-tile 8 --unroll 1 --overlap 1 --repeat 3"
for i in 1 2; do
  echo "f32 $($L apsp $g $c 2>&1 | tail -1)"
  echo "i32 $($L apsp $g $c --type i32 2>&1 | tail -1)"
  echo "u16x2-proto $(LOCKSTEP_KERNEL_DIR=$work/u16_minplus $L apsp $g $c --type i32 2>&1 | tail -1)"
done | tee "$OUT/proto_apsp.txt"
{
  [[ -x "${ANCHORS:-}/cuda_anchors" ]] && "$ANCHORS/cuda_anchors" barrier | grep -E "groups=(132|264|1056) "
  for cfg in "132 256" "256 256" "264 1024" "1056 256"; do
    set -- $cfg
    for s in lock grouped-lock lock-free; do
      $L bench barrier --barrier $s --groups $1 --local-size $2 --no-data --order acqrel-rspin \
        --stride 1 --rounds 20000 2>&1 | grep -v "^#"
    done
    LOCKSTEP_KERNEL_DIR=$work/all_to_all_barrier $L bench barrier --barrier lock-free --groups $1 \
      --local-size $2 --no-data --order acqrel-rspin --stride 1 --rounds 20000 2>&1 |
      grep -v "^#" | sed 's/^/all-to-all-proto /'
    for k in 2 4 8; do
      LOCKSTEP_KERNEL_DIR=$work/split$k $L bench barrier --barrier grouped-lock --groups $1 \
        --local-size $2 --no-data --order acqrel-rspin --rounds 20000 2>&1 |
        grep -v "^#" | sed "s/^/split$k-proto /"
    done
  done
} | tee "$OUT/proto_barrier.txt"
rm -rf "$work"
