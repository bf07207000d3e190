#!/usr/bin/env bash
# Database search over several GPUs: the mmseqs2 example DB (9.06 M residues) written $COPIES
# times (default 50: 453 M residues, each copy's ties ranked by database order across the shares),
# prepared once with `lockstep makedb`, x its first $QUERIES_N queries (default 50), top 10,
# BLOSUM62 11/1, BLAST tabular output (--outfmt 6):
#   case=devices: one process, `--devices 0,1,..,n-1` for n in $DEVICES (default "1 2 4 8";
#     counts above the host's GPUs are skipped and say so)
#   case=mpi: `mpirun -np n lockstep search --distributed` (one GPU per rank), n in $DEVICES
#     (skipped without mpirun or a lockstep that runs --distributed; .carry/mpi/env.sh and
#     LOCKSTEP_MPI as tools/bench/mpi_cg.sh takes them)
# Each run twice (cold: kernel builds included; then the line kept), one line each:
#   case= n= wall_s= (the process's wall time) and lockstep's summary line (ms=: the search's
#   device phase, kernel_ms=: the kernels' time summed over the devices, traceback_ms=, ...), with
#   speedup= (one GPU's ms over this ms), wall_speedup= and same_hits=1 when the hits file is the
#   one-GPU run's byte for byte (0 otherwise: a failure to report).
# Writes $OUT/search_scaling.txt and, with matplotlib, $OUT/search_scaling.png.
# Use: LOCKSTEP=build/lockstep OUT=/tmp/out [COPIES=50] [QUERIES_N=50] [DEVICES="1 2 4 8"]
#      [LOCKSTEP_MPI=.carry/mpi/lockstep] [MPIRUN=mpirun] [STEP_TIMEOUT=600]
#      tools/bench/search_scaling.sh
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP to the lockstep binary}" "${OUT:?set OUT to the output folder}"
here=$(cd "$(dirname "$0")" && pwd)
source "$here/kv.sh"
data=${SEARCH_DATA:-}
for d in /usr/share/doc/mmseqs2/example-data "$here/../../.carry/mmseqs2"; do
  [[ -z "$data" && -f "$d/DB.fasta.gz" ]] && data=$d
done
DB=${DB:-$data/DB.fasta.gz} QUERIES=${QUERIES:-$data/QUERY.fasta.gz}
if [[ ! -f "$DB" || ! -f "$QUERIES" ]]; then
  echo "search_scaling.sh: no database (apt-get install mmseqs2-examples, or set DB and QUERIES)" >&2
  exit 1
fi
COPIES=${COPIES:-50} QUERIES_N=${QUERIES_N:-50} DEVICES=${DEVICES:-"1 2 4 8"}
STEP_TIMEOUT=${STEP_TIMEOUT:-600}
tmp=${SEARCH_TMP:-/tmp/lockstep-search-scaling}
rm -rf "$tmp" && mkdir -p "$tmp" "$OUT"
txt="$OUT/search_scaling.txt"
: > "$txt"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }

gzip -cdf "$DB" > "$tmp/one.fa"
for ((k = 0; k < COPIES; ++k)); do cat "$tmp/one.fa"; done > "$tmp/db.fa"
rm -f "$tmp/one.fa"
t0=$(now)
"$LOCKSTEP" makedb "$tmp/db.fa" "$tmp/db.lsdb" > /dev/null 2>> "$OUT/search_scaling.err" ||
  { echo "search_scaling.sh: makedb failed (see $OUT/search_scaling.err)" >&2; exit 1; }
echo "makedb copies=$COPIES wall_s=$(since "$t0") bytes=$(stat -c %s "$tmp/db.lsdb")" | tee -a "$txt"
rm -f "$tmp/db.fa"
gzip -cdf "$QUERIES" | awk -v n="$QUERIES_N" '/^>/ { k++ } k <= n' > "$tmp/q.fa"
# GPUS=2 SAME_DEVICE=1: a dry run on one device (PoCL): --devices 0,0, and every rank on it
gpus=${GPUS:-$("$LOCKSTEP" devices 2>/dev/null | grep -c ' type=GPU ')}
echo "host gpus=$gpus" | tee -a "$txt"

ms_one="" wall_one=""
# run CASE N COMMAND...: the command twice (cold, then kept), its last line with the wall time
run() {
  local case=$1 n=$2 t0 out rc wall line same speed=""
  shift 2
  "$@" --out "$tmp/$case-$n.tsv" > /dev/null 2>> "$OUT/search_scaling.err"  # cold
  t0=$(now)
  out=$("$@" --out "$tmp/$case-$n.tsv" 2>> "$OUT/search_scaling.err")
  rc=$?
  wall=$(since "$t0")
  if [[ $rc -ne 0 ]]; then echo "case=$case n=$n error=1 rc=$rc" | tee -a "$txt"; return; fi
  line=$(tail -n1 <<< "$out")
  local ms; ms=$(kv ms <<< "$line")
  if [[ $n -eq 1 && $case == devices ]]; then ms_one=$ms wall_one=$wall; fi
  same=0
  cmp -s "$tmp/devices-1.tsv" "$tmp/$case-$n.tsv" && same=1
  [[ -n "$ms_one" ]] && speed=$(awk -v a="$ms_one" -v b="$ms" -v c="$wall_one" -v d="$wall" \
    'BEGIN { printf "speedup=%.3f wall_speedup=%.3f ", a / b, c / d }')
  echo "case=$case n=$n wall_s=$wall ${speed}same_hits=$same $line" | tee -a "$txt"
}
search=("$LOCKSTEP" search "$tmp/q.fa" "$tmp/db.lsdb" --top 10 --gap-open 11 --gap-extend 1
        --outfmt 6)
for n in $DEVICES; do
  if [[ $n -gt $gpus && $n -gt 1 ]]; then echo "case=devices n=$n skipped=1 reason=gpus=$gpus" | tee -a "$txt"; continue; fi
  list=$(seq -s, 0 $((n - 1)))
  [[ -n "${SAME_DEVICE:-}" ]] && list=$(yes 0 | head -n "$n" | paste -sd,)
  run devices "$n" timeout "$STEP_TIMEOUT" "${search[@]}" --devices "$list"
done
# MPI as tools/bench/mpi_cg.sh runs it: the carried portable MPI build where there is one.
user_bin=${LOCKSTEP_MPI:-} user_mpirun=${MPIRUN:-}
[[ -f "$here/../../.carry/mpi/env.sh" ]] && source "$here/../../.carry/mpi/env.sh"
mpi_bin=${user_bin:-${LOCKSTEP_MPI:-$LOCKSTEP}}
mpirun=${user_mpirun:-${MPIRUN:-$(command -v mpirun || true)}}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
probe=$([[ -n "$mpirun" ]] && $mpirun -np 1 "$mpi_bin" search "$tmp/q.fa" /nonexistent.fa --distributed 2>&1)
if [[ "$probe" == *"rank 0: /nonexistent.fa"* ]]; then
  unset LOCKSTEP_DEVICE  # each rank takes GPU (local rank) among the GPUs
  search_mpi=("$mpi_bin" "${search[@]:1}")
  for n in $DEVICES; do
    if [[ $n -gt $gpus && $n -gt 1 ]]; then echo "case=mpi n=$n skipped=1 reason=gpus=$gpus" | tee -a "$txt"; continue; fi
    run mpi "$n" timeout "$STEP_TIMEOUT" $mpirun -np "$n" --bind-to none "${search_mpi[@]}" --distributed
  done
else
  echo "case=mpi skipped=1 reason=no_mpirun_or_no_--distributed (${mpirun:-none}, $mpi_bin)" | tee -a "$txt"
fi
plot_py=""
for p in /usr/bin/python3 python3; do "$p" -c "import matplotlib" 2>/dev/null && plot_py=$p && break; done
if [[ -n "$plot_py" ]]; then
  "$plot_py" "$here/plot_search_scaling.py" "$txt" "$OUT/search_scaling.png"
else
  echo "search_scaling.sh: no matplotlib, no plot" >&2
fi
