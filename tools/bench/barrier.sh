#!/usr/bin/env bash
# Global barrier benchmark (issue 4): us per barrier and read-after-barrier errors for the five
# strategies at 132, 264, 528 groups and full residency of 256-item groups (10^5 rounds = 2*10^5
# barriers each), briefly at 64 and 1024 items, 10^6 barriers of lock and grouped-lock at full
# residency, and CUDA grid.sync() from $ANCHORS/cuda_anchors when set. Writes $OUT/barrier.txt
# (key=value lines) and, when matplotlib is present, $OUT/barrier.png.
# Use: LOCKSTEP=build/lockstep OUT=/tmp/out [ANCHORS=dir] [ROUNDS=100000] tools/bench/barrier.sh
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP to the lockstep binary}" "${OUT:?set OUT to the output folder}"
rounds=${ROUNDS:-100000}
brief=${BRIEF_ROUNDS:-$((rounds / 5))}
long=${LONG_ROUNDS:-$((rounds * 5))}
groups=${GROUPS_LIST:-132,264,528,max}
mkdir -p "$OUT"
txt="$OUT/barrier.txt"
: > "$txt"
run() { echo "# lockstep $*" >> "$txt"; "$LOCKSTEP" "$@" 2>> "$OUT/barrier.err" | tee -a "$txt"; }
run bench barrier --strategy all --groups "$groups" --local-size 256 --rounds "$rounds"
run bench barrier --strategy all --groups 132,max --local-size 64 --rounds "$brief"
run bench barrier --strategy all --groups 132,max --local-size 1024 --rounds "$brief"
run bench barrier --strategy tree --branch 32 --groups "$groups" --local-size 256 --rounds "$rounds"
run bench barrier --strategy lock --groups max --local-size 256 --rounds "$long"
run bench barrier --strategy grouped-lock --groups max --local-size 256 --rounds "$long"
if [[ -n "${ANCHORS:-}" && -x "$ANCHORS/cuda_anchors" ]]; then
  echo "# cuda_anchors barrier" >> "$txt"
  "$ANCHORS/cuda_anchors" barrier 2>> "$OUT/barrier.err" | tee -a "$txt"
fi
py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3  # Debian matplotlib
"$py" "$(dirname "$0")/plot_barrier.py" "$txt" "$OUT/barrier.png" 2>> "$OUT/barrier.err" ||
  echo "plot skipped (see $OUT/barrier.err)"
exit 0
