#!/usr/bin/env bash
# Global barrier benchmark: us per barrier and read-after-barrier errors (ordinary
# loads) for every strategy x NVIDIA ordering variant (fence: fence.acq_rel.gpu around every hop;
# acqrel: ld.acquire / st.release / red.release / atom.acq_rel at .gpu scope; acqrel-rspin: relaxed
# spins and one acquire load) x flag spacing (lock-free and tree: 1 packed, 32 one line each) at
# 132 and full-residency groups of 256 items and 264 groups of 1024 items, first the barriers
# alone (--no-data, data=0: the loop CUDA's grid.sync() anchor times), then with data written
# before and checked after every barrier; two floor microbenchmarks: the lock over 1 and 2 groups
# (one red.release plus an acquire spin: an atomic round trip) and the flag-ring hop latency (one
# release -> acquire between groups, what each tree / lock-free level costs: kind=flag_ring
# us_per_hop=); 10^6 barriers at full residency; and CUDA grid.sync() from $ANCHORS/cuda_anchors
# in the same run (before and after). On non-NVIDIA devices the order list collapses to the
# device's one path (c11 or mem_fence), reported as order=... . Writes $OUT/barrier.txt (key=value
# lines) and, with matplotlib, $OUT/barrier.png. Most important first: tools/gpu/run.sh stops a
# script after 200 s.
# Use: LOCKSTEP=build/lockstep OUT=/tmp/out [ANCHORS=dir] [ROUNDS=20000] [LONG_ROUNDS=500000]
#      [ORDERS=fence,acqrel,acqrel-rspin] tools/bench/barrier.sh      (aimed at ~150 s on an H100)
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP to the lockstep binary}" "${OUT:?set OUT to the output folder}"
rounds=${ROUNDS:-20000}
long=${LONG_ROUNDS:-500000}  # 2 barriers per round: 10^6 barriers
orders=${ORDERS:-fence,acqrel,acqrel-rspin}
mkdir -p "$OUT"
txt="$OUT/barrier.txt"
: > "$txt"
run() { echo "# lockstep $*" >> "$txt"; "$LOCKSTEP" "$@" 2>> "$OUT/barrier.err" | tee -a "$txt"; }
anchors() {
  if [[ -n "${ANCHORS:-}" && -x "$ANCHORS/cuda_anchors" ]]; then
    echo "# cuda_anchors barrier ($1)" >> "$txt"
    "$ANCHORS/cuda_anchors" barrier 2>> "$OUT/barrier.err" | tee -a "$txt"
  fi
}
anchors before
common=(--order "$orders" --stride 1,32 --rounds "$rounds")
# the barriers alone, no data written or read between them
run bench barrier --barrier all --groups 132,max --local-size 256 --no-data "${common[@]}"
run bench barrier --barrier all --groups 264 --local-size 1024 --no-data "${common[@]}"
# with data written before and checked after every barrier (ordinary loads)
run bench barrier --barrier all --groups 132,max --local-size 256 "${common[@]}"
run bench barrier --barrier all --groups 132,264 --local-size 1024 "${common[@]}"
# floor: an atomic round trip (lock over 1-2 groups), one release -> acquire hop (flag ring)
run bench barrier --barrier lock --groups 1,2 --local-size 256 --no-data --order "$orders" \
  --rounds "$rounds"
run bench barrier --barrier ring --groups 2,132 --local-size 256 --order "$orders" --stride 1,32 \
  --rounds 2000
# 10^6 barriers with data at full residency (lock-free: at most one group per master work-item)
run bench barrier --barrier lock --groups max --local-size 256 --order "$orders" --rounds "$long"
run bench barrier --barrier grouped-lock --groups max --local-size 256 --order fence,acqrel \
  --rounds "$long"
run bench barrier --barrier tree --groups max --local-size 256 --order acqrel --stride 1,32 \
  --rounds "$long"
run bench barrier --barrier lock-free --groups max --local-size 256 --order acqrel --stride 32 \
  --rounds "$long"
run bench barrier --barrier lock --groups max --local-size 1024 --order fence,acqrel \
  --rounds "$long"
run bench barrier --barrier tree --branch 32 --groups max --local-size 256 --no-data "${common[@]}"
anchors after
py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3  # Debian matplotlib
"$py" "$(dirname "$0")/plot_barrier.py" "$txt" "$OUT/barrier.png" 2>> "$OUT/barrier.err" ||
  echo "plot skipped (see $OUT/barrier.err)"
exit 0
