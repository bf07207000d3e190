#!/usr/bin/env bash
# Sorting benchmark: Gkeys/s of `lockstep sort` for n = 2^K_MIN .. 2^K_MAX: radix
# and auto on u32 keys, u32 pairs and u64 keys (each line carries ms_KERNEL, the device time of
# every radix kernel: ms_hist, ms_pass0.., or ms_small for the one-group sort), the
# persistent bitonic sort on every barrier strategy and relaunch (to 2^BITONIC_MAX); the radix sort
# in one persistent launch (radix-persistent, keys, pairs, u64, to 2^PERSIST_MAX, its ITEMS swept
# at 2^PERSIST_ITEMS_KS); radix ITEMS per tile swept at 2^ITEMS_KS; the seed paper's comparison (grouped-lock against lock
# across work-group counts at 2^16 and 2^20); a --verify sweep over every type, order, pairs,
# algorithm and strategy; and the anchors (Thrust/CUB from $ANCHORS/cuda_anchors, Boost.Compute
# from $ANCHORS/opencl_anchors) in the same run. Writes $OUT/sort.txt (key=value lines, each run
# preceded by "# series=NAME lockstep ...") and, with matplotlib, $OUT/sort.png.
# QUICK=1 (~3 min): radix, radix-persistent and auto keys, pairs and u64 at KS (default 2^10,12,
# ..,26,27), the items sweep at 2^24 only, a short verify (pairs, every type and order; the radix
# paths below 2^27) and the anchors at 2^10, 2^12, 2^14, 2^16, 2^20, 2^24, 2^26; no tuning, no
# bitonic series.
# Use: LOCKSTEP=build/lockstep OUT=/tmp/out [ANCHORS=dir] [K_MIN=10] [K_MAX=27] [KS="..."]
#      [REPEAT=10] [TUNE=1] [TUNE_MAX=20] [BITONIC_MAX=22] [SEED_KS="16 20"] [VERIFY_N=1000003]
#      [QUICK=0] [ITEMS_KS="20 24"] [ITEMS_SWEEP="8 12 15 16 18 21 24"]
#      [RADIX_VERIFY_NS="1025 1048575 134217728"] [ANCHOR_KS="..."] [PERSIST_MAX=20]
#      [PERSIST_ITEMS_KS="12 16 17"] [PERSIST_ITEMS="1 2 4 8 16"] tools/bench/sort.sh
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP to the lockstep binary}" "${OUT:?set OUT to the output folder}"
kmin=${K_MIN:-10}
kmax=${K_MAX:-27}
bmax=${BITONIC_MAX:-22}
repeat=${REPEAT:-10}
seed_ks=${SEED_KS:-16 20}
vn=${VERIFY_N:-1000003}  # verify sizes: vn (radix), vn/3 (bitonic), ~2^20 (strategies)
mkdir -p "$OUT"
txt="$OUT/sort.txt"
: > "$txt"
run() {  # run SERIES ARGS...
  local series=$1
  shift
  echo "# series=$series lockstep sort $*" >> "$txt"
  "$LOCKSTEP" sort "$@" 2>> "$OUT/sort.err" | tail -1 | tee -a "$txt"
}
start=$SECONDS
quick=${QUICK:-0}
ks=${KS:-$(seq -s ' ' "$kmin" "$kmax")}
anchor_ks=${ANCHOR_KS:-$ks}
items_ks=${ITEMS_KS:-20 24}
items_sweep=${ITEMS_SWEEP:-8 12 15 16 18 21 24}
radix_verify_ns=${RADIX_VERIFY_NS:-1025 1048575 134217728}
persist_max=${PERSIST_MAX:-20}
persist_items_ks=${PERSIST_ITEMS_KS:-12 16 17}
persist_items=${PERSIST_ITEMS:-1 2 4 8 16}
if [[ "$quick" != 0 ]]; then
  TUNE=0
  ks=${KS:-10 12 14 16 18 20 22 24 26 27}
  anchor_ks=${ANCHOR_KS:-10 12 14 16 20 24 26}
  items_ks=${ITEMS_KS:-24}
  items_sweep=${ITEMS_SWEEP:-8 10 12 13 16 18}
  radix_verify_ns=${RADIX_VERIFY_NS:-1025 65537 131073 1048575}
fi
# auto from measurements: tune the size classes 2^10..2^TUNE_MAX (keys and pairs) into a
# tuning database kept with the results; the auto-* series below follow it (TUNE=0: the rule).
if [[ "${TUNE:-1}" != 0 ]]; then
  export LOCKSTEP_TUNING_DB="$OUT/sort_tuning.json"
  for p in "" --pairs; do
    echo "# tune lockstep tune sort --kmin $kmin --kmax ${TUNE_MAX:-20} $p" >> "$txt"
    "$LOCKSTEP" tune sort --kmin "$kmin" --kmax "${TUNE_MAX:-20}" --repeat 3 $p 2>> "$OUT/sort.err" |
      sed 's/^/# tune /' >> "$txt"
  done
  echo "# tune seconds=$((SECONDS - start))" >> "$txt"
fi
for k in $ks; do
  n=$((1 << k))
  run radix-keys --n "$n" --algorithm radix --repeat "$repeat"
  run radix-pairs --n "$n" --algorithm radix --pairs --repeat "$repeat"
  run radix-u64 --n "$n" --type u64 --algorithm radix --repeat "$repeat"
  if ((k <= persist_max)); then
    run persistent-keys --n "$n" --algorithm radix-persistent --repeat "$repeat"
    run persistent-pairs --n "$n" --algorithm radix-persistent --pairs --repeat "$repeat"
    run persistent-u64 --n "$n" --type u64 --algorithm radix-persistent --repeat "$repeat"
  fi
  run auto-keys --n "$n" --repeat "$repeat"
  run auto-pairs --n "$n" --pairs --repeat "$repeat"
  run auto-u64 --n "$n" --type u64 --repeat "$repeat"
  [[ "$quick" != 0 ]] && continue
  if ((k <= bmax)); then
    for s in relaunch lock grouped-lock lock-free tree; do
      run "bitonic-$s" --n "$n" --algorithm bitonic --barrier "$s" --repeat "$repeat"
    done
  fi
done
echo "# sweep seconds=$((SECONDS - start))" >> "$txt"
# Radix tile size: keys per work-item (ITEMS), keys, pairs and u64 (the issue's tuning knob).
for k in $items_ks; do
  for it in $items_sweep; do
    run "items-$it-keys" --n $((1 << k)) --algorithm radix --items "$it" --repeat "$repeat"
    run "items-$it-pairs" --n $((1 << k)) --algorithm radix --items "$it" --pairs --repeat "$repeat"
    run "items-$it-u64" --n $((1 << k)) --type u64 --algorithm radix --items "$it" --repeat "$repeat"
  done
done
# radix-persistent's tile: keys per work-item (the tile count, so the work-groups, follows).
for k in $persist_items_ks; do
  for it in $persist_items; do
    run "persistent-items-$it-keys" --n $((1 << k)) --algorithm radix-persistent --items "$it" \
      --repeat "$repeat"
    run "persistent-items-$it-pairs" --n $((1 << k)) --algorithm radix-persistent --items "$it" \
      --pairs --repeat "$repeat"
  done
done
if [[ "$quick" != 0 ]]; then seed_ks=""; fi
# The seed's comparison: grouped-lock against lock across group counts.
for k in $seed_ks; do
  for g in 8 16 33 66 132 264; do
    for s in lock grouped-lock; do
      run "seed-$s-2^$k" --n $((1 << k)) --algorithm bitonic --barrier "$s" --groups "$g" \
        --repeat "$repeat"
    done
  done
done
# Verification: every type, order, pairs and algorithm; every strategy on u32.
for t in u32 i32 f32 u64; do
  for d in "" --descending; do
    for p in "" --pairs; do
      [[ "$quick" != 0 && -z "$p" ]] && continue
      run verify-radix --n "$vn" --type "$t" $d $p --algorithm radix --verify
      [[ "$quick" == 0 ]] &&
        run verify-bitonic --n $((vn / 3)) --type "$t" $d $p --algorithm bitonic --barrier lock --verify
    done
  done
done
if [[ "$quick" == 0 ]]; then
  for s in relaunch grouped-lock lock-free tree auto; do
    run verify-bitonic --n $((vn + 1)) --algorithm bitonic --barrier "$s" --pairs --verify
  done
fi
# radix-persistent: every type and order, pairs, one tile past a power of two and 100003
for t in u32 i32 f32 u64; do
  for d in "" --descending; do
    for n in 65537 100003 131073; do
      run verify-persistent --n "$n" --type "$t" $d --pairs --algorithm radix-persistent --verify
    done
  done
done
run verify-persistent --n 100003 --algorithm radix-persistent --barrier relaunch --pairs --verify
# radix at every path: one group (2^10 + 1), one histogram group and short tiles (2^16 + 1,
# 2^17 + 1), tiles (2^20 - 1), 2^27 (u32 pairs, u64 keys)
for n in $radix_verify_ns; do
  run verify-radix --n "$n" --pairs --algorithm radix --verify
  run verify-radix --n "$n" --type u64 --algorithm radix --verify
done
echo "# total seconds=$((SECONDS - start))" >> "$txt"
logs=$anchor_ks
if [[ -n "${ANCHORS:-}" && -x "$ANCHORS/cuda_anchors" ]]; then
  echo "# anchors cuda_anchors sort $logs" >> "$txt"
  "$ANCHORS/cuda_anchors" sort $logs 2>> "$OUT/sort.err" | tee -a "$txt"
fi
if [[ -n "${ANCHORS:-}" && -x "$ANCHORS/opencl_anchors" ]]; then
  echo "# anchors opencl_anchors sort $logs" >> "$txt"
  "$ANCHORS/opencl_anchors" sort $logs 2>> "$OUT/sort.err" | tee -a "$txt"
fi
grep -c "verified=0" "$txt" | sed 's/^/# verification failures=/' >> "$txt"
py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3  # Debian matplotlib
"$py" "$(dirname "$0")/plot_sort.py" "$txt" "$OUT/sort.png" 2>> "$OUT/sort.err" ||
  echo "plot skipped (see $OUT/sort.err)"
exit 0
