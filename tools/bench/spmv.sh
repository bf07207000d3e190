#!/usr/bin/env bash
# SpMV benchmark set, fp64, on one device, side by side with cuSPARSE: for each
# matrix, in one run: `lockstep spmv --algorithm auto` with an EMPTY tuning database (the untuned
# rule), `lockstep tune` (the tuned time: its `best` line; its JSON also holds the merge-path
# candidates it timed), `lockstep spmv --algorithm merge` for MERGE_NAMES (merge-path forced;
# default: the three irregular matrices) and `cuda_anchors spmv FILE` (cuSPARSE ALG1 and ALG2).
# Matrices are generated with `lockstep gen` into MATRIX_DIR (default /tmp/lockstep-bench).
# Writes $OUT/spmv.txt (key=value lines, each command preceded by a `# ...` line, and at the end
# the markdown table of BENCHMARKS.md as `# |...` lines), the tuner's JSON per matrix
# ($OUT/tune_NAME_double.json) and, when matplotlib is present, $OUT/spmv.png. Reading the
# Matrix Market text (~250 MB/s, 13 GB for the default set, once per command) dominates:
# estimated 300-400 s on the H100 machine with a cold MATRIX_DIR, so under tools/gpu/run.sh run
# it in two NAMES batches (BENCHMARKS.md) or set BENCH_TIMEOUT=580.
# Use: LOCKSTEP=build/lockstep OUT=/tmp/out [ANCHORS=dir] [NAMES="..."] tools/bench/spmv.sh
#   SWEEP=1: instead, for the fit of the untuned rule: `lockstep spmv-model` (features) and an
#     exhaustive `lockstep tune --json` per matrix, then tools/bench/fit_spmv_rule.py on them;
#     about 20-60 s per large matrix, so run it in two or three NAMES batches of < 10 min.
#   BUDGET (s, default 4): the default tune's wall-clock budget per matrix.
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP to the lockstep binary}" "${OUT:?set OUT to the output folder}"
dir=${MATRIX_DIR:-/tmp/lockstep-bench}
mkdir -p "$dir" "$OUT"
log="$OUT/spmv.txt"
err="$OUT/spmv.err"
declare -A spec=(
  # irregular and short-row shapes
  [rmat_21_16]="rmat 21 16 --seed 7" [powerlaw_1m]="powerlaw 1048576 1.8 --seed 1"
  [uniform_4m_4]="uniform 4194304 4 --seed 7" [laplace2d_4096]="laplace2d 4096"
  # new shapes: very short rows, a few very long rows among short ones, block FEM-like
  [short_8m_2]="uniform 8388608 2 --seed 3" [hubs_4m]="hubs 4194304 4 64 200000 --seed 5"
  [blocks3d_80_3]="blocks3d 80 3 --seed 1"
  # the regular set
  [laplace2d_2048]="laplace2d 2048" [uniform_1m_16]="uniform 1048576 16 --seed 1"
  [dense_10000_1000]="dense 10000 1000 --seed 1" [laplace3d_160]="laplace3d 160"
  [banded_1m_8]="banded 1048576 8 --seed 1")
names=${NAMES:-"rmat_21_16 powerlaw_1m uniform_4m_4 laplace2d_4096 short_8m_2 hubs_4m blocks3d_80_3 uniform_1m_16 dense_10000_1000 laplace3d_160 banded_1m_8"}
files=()
for n in $names; do
  [[ -n "${spec[$n]:-}" ]] || { echo "unknown matrix name $n (known: ${!spec[*]})" >&2; exit 2; }
  [[ -f "$dir/$n.mtx" ]] || "$LOCKSTEP" gen ${spec[$n]} -o "$dir/$n.mtx" >/dev/null 2>>"$err" || exit 1
  files+=("$dir/$n.mtx")
done
for f in ${SHARED_MATRICES:-}; do files+=("$f"); done
run() { echo "# lockstep $*" >> "$log"; "$LOCKSTEP" "$@" 2>>"$err" | tail -1 | tee -a "$log"; }
empty_db="$dir/empty-tuning-db.json"  # never written: auto falls back to the untuned rule
tuned_db="$OUT/spmv-tuning-db.json"
rm -f "$empty_db"
start=$SECONDS
for f in "${files[@]}"; do
  n=$(basename "$f" .mtx)
  if [[ -n "${SWEEP:-}" ]]; then
    run spmv-model "$f"
    LOCKSTEP_TUNING_DB="$tuned_db" run tune "$f" --precision double --exhaustive --json "$OUT/tune_${n}_double.json"
    continue
  fi
  LOCKSTEP_TUNING_DB="$empty_db" run spmv "$f" --algorithm auto --verify
  LOCKSTEP_TUNING_DB="$tuned_db" run tune "$f" --precision double --budget "${BUDGET:-4}" --json "$OUT/tune_${n}_double.json"
  [[ " ${MERGE_NAMES-rmat_21_16 powerlaw_1m hubs_4m} " == *" $n "* ]] && run spmv "$f" --algorithm merge --verify
  if [[ -n "${ANCHORS:-}" && -x "$ANCHORS/cuda_anchors" ]]; then
    echo "# cuda_anchors spmv $f" >> "$log"
    "$ANCHORS/cuda_anchors" spmv "$f" 2>>"$err" | tee -a "$log"
  fi
done
echo "# seconds=$((SECONDS - start))" | tee -a "$log"
here=$(dirname "$0")
py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3  # Debian matplotlib
if [[ -n "${SWEEP:-}" ]]; then
  "$py" "$here/fit_spmv_rule.py" --features "$log" "$OUT" | tee "$OUT/spmv-fit.txt"
else
  "$py" "$here/plot_spmv.py" "$log" "$OUT/spmv.png" 2>>"$err" || echo "plot skipped (see $err)"
  "$py" "$here/plot_spmv.py" --table "$log" | sed 's/^/# /' | tee -a "$log"  # at most 8 files return
fi
