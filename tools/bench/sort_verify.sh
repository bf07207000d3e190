#!/usr/bin/env bash
# The sort's verification sweep: `lockstep sort --verify` (against
# std::stable_sort on the host; pairs compare the values too, so stability is checked) at n = 0, 1,
# 3, 2^k - 1, 2^k, 2^k + 1 for k in $KS, 10^6 + 3 and 2^27, every key type, both orders, keys and
# pairs, with auto; radix and radix-persistent forced up to 2^$FORCED_MAX (both paths of each
# crossover), bitonic up to 2^$BITONIC_MAX. One line per case in $OUT/sort_verify.txt
# ("ok"/"FAIL" and the command), a FAIL's output in sort_verify.err, counts at the end.
# Exit status 1 when any case failed. On a CPU device each case is one process: PoCL builds
# every variant once (its kernel cache keeps them).
# Use: LOCKSTEP=build/lockstep OUT=/tmp/out [KS="5 10 13 16 17 20 24"] [BIG=134217728]
#      [FORCED_MAX=20] [BITONIC_MAX=17] [TYPES="u32 i32 f32 u64"] [ORDERS="asc desc"]
#      [KINDS="keys pairs"] tools/bench/sort_verify.sh   (TYPES/ORDERS/KINDS split a sweep into
#      parallel parts)
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP to the lockstep binary}" "${OUT:?set OUT to the output folder}"
ks=${KS:-5 10 13 16 17 20 24}
big=${BIG:-134217728}
forced_max=${FORCED_MAX:-20}
bitonic_max=${BITONIC_MAX:-17}
types=${TYPES:-u32 i32 f32 u64}
orders=${ORDERS:-asc desc}
kinds=${KINDS:-keys pairs}
mkdir -p "$OUT"
txt="$OUT/sort_verify.txt" err="$OUT/sort_verify.err"
: > "$txt"
: > "$err"
sizes="0 1 3"
for k in $ks; do sizes+=" $(((1 << k) - 1)) $((1 << k)) $(((1 << k) + 1))"; done
sizes+=" 1000003 $big"
ok=0 bad=0 start=$SECONDS
check() {  # check ARGS...: one verified sort
  local out
  if out=$("$LOCKSTEP" sort --verify "$@" 2>&1) && grep -q "verified=1" <<< "$out"; then
    ok=$((ok + 1)); echo "ok lockstep sort $*" >> "$txt"
  else
    bad=$((bad + 1)); echo "FAIL lockstep sort $*" | tee -a "$txt"
    { echo "# lockstep sort --verify $*"; echo "$out"; } >> "$err"
  fi
}
for t in $types; do
  for order in $orders; do
    d=; [[ $order == desc ]] && d=--descending
    for kind in $kinds; do
      p=; [[ $kind == pairs ]] && p=--pairs
      for n in $sizes; do
        check --n "$n" --type "$t" $d $p
        [[ $n -gt $((1 << forced_max)) ]] && continue
        check --n "$n" --type "$t" $d $p --algorithm radix
        check --n "$n" --type "$t" $d $p --algorithm radix-persistent
        [[ $n -le $((1 << bitonic_max)) ]] && check --n "$n" --type "$t" $d $p --algorithm bitonic
      done
    done
  done
done
echo "# verified ok=$ok failed=$bad seconds=$((SECONDS - start))" | tee -a "$txt"
[[ $bad == 0 ]]
