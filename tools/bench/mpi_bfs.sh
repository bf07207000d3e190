#!/usr/bin/env bash
# Distributed BFS on 1, 2, 4 and 8 GPUs of one host: `lockstep bfs --rmat S --distributed`
# under mpirun, every run validated (Graph500 tree checks, distributed); GTEPS = Graph500's
# harmonic mean over --sources searches, each undirected edge of the traversed component once.
#   strong  RMAT 26 on 1, 2, 4 (and 8) GPUs
#   weak    2^26 vertices a GPU: RMAT 26 on 1 (the strong run), 27 on 2, 28 on 4 (29 on 8)
#   big     RMAT $BIG_SCALE on $BIG_NP GPUs (default 30 on 8 where 8 GPUs are, else 29 on 4: does
#           not fit one GPU, ~17 GB of rows a rank; not in the default PARTS; the fallback where
#           only 2 GPUs are lent: BIG_SCALE=28 BIG_NP=2)
# Counts beyond the host's GPUs are left out. The calls a kind (each under 10 minutes; the 4-GPU
# default took 6-7 minutes on H100s):
#   nvidia-h200-x4: OUT=/tmp/a tools/bench/mpi_bfs.sh              (one strong weak)
#                   OUT=/tmp/b PARTS=big tools/bench/mpi_bfs.sh    (RMAT 29 on 4)
#   nvidia-h200-x8: OUT=/tmp/a PARTS=strong tools/bench/mpi_bfs.sh (RMAT 26 on 1/2/4/8)
#                   OUT=/tmp/b PARTS=weak tools/bench/mpi_bfs.sh   (26 on 1 ... 29 on 8)
#                   OUT=/tmp/c PARTS=big tools/bench/mpi_bfs.sh    (RMAT 30 on 8)
#   then tools/bench/fit_mpi_bfs.py /tmp/{a,b,c}/mpi_bfs.txt fits all of them together.
# BFS_ARGS="--bitmap-discoveries 0 --tiny-edges 0" runs the earlier level rules.
# Last, tools/bench/fit_mpi_bfs.py fits the scaling model (per-level fixed cost, per-edge cost,
# host-staged bytes) to the runs' level timelines and predicts 8 and 64 GPUs, with and without
# GPU-direct transfers (`model` and `predict` lines; docs/mpi.md).
#   one     RMAT 24: `lockstep bfs` (one GPU, no MPI) against `--distributed` under -np 1 (which
#           runs the same one-device engine: one_device=1 on its timeline lines)
# Every mpirun draws its graph again on every rank (graph_s= on its first line; each rank draws
# its share of the edge stream for the degrees, then the whole stream for its rows, with its
# share of the host's cores, OMP_NUM_THREADS = cores / np). The default PARTS took ~6-7 minutes
# on 4 H100s (estimate from measured graph_s and wall_s: RMAT 28 on 4 ranks ~2 minutes).
# Prints, per run, the summary line (gteps = harmonic mean), the head line's shared_peers (ranks
# whose bottom-up bitmap words and top-down pairs come through shared memory) and the first
# search's per-level timeline (`timeline level=`: direction, global frontier, slowest rank's ms
# and exchange_ms, most pairs a rank sent, lb_ranks: ranks whose top-down expand was
# load-balanced, shm_ranks: ranks whose top-down pairs went through shared memory).
# BFS_ARGS, when set, ends every --distributed command (e.g. "--shared-capacity 33554432").
# LOCKSTEP_MPI_HALO (auto | shm | shm-plain | mpi), when set, goes to every rank (mpirun -x);
# so does LOCKSTEP_BUILD_TIMES=1: each rank's graph build phases (`build_phase distributed
# rank=R count_s=...`, graph/build_clock.hpp) then land in $OUT/mpi_bfs.err. Writes $OUT/mpi_bfs.txt (the commands' key=value lines, a wall_s=
# line after each, then `strong`/`weak` lines with speedup and efficiency) and, with
# matplotlib, $OUT/mpi_bfs.png. Needs GPUs and an MPI binary: exits 0 with a note otherwise.
# MPI comes from .carry/mpi (tools/gpu/prepare_mpi.sh) when present, else PATH.
# Use: OUT=/tmp/out [SOURCES=8] [BIG_SOURCES=4] [BIG_SCALE=29|30] [BIG_NP=4|8] [PARTS="one strong weak"]
#      tools/bench/mpi_bfs.sh
#      (PARTS=big for RMAT 29 on 4 GPUs or 30 on 8, its own call)
set -uo pipefail
: "${OUT:?set OUT to the output folder}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/tools/bench/kv.sh"
mkdir -p "$OUT"
txt="$OUT/mpi_bfs.txt"
user_bin=${LOCKSTEP_MPI:-} user_mpirun=${MPIRUN:-}
[[ -f "$root/.carry/mpi/env.sh" ]] && source "$root/.carry/mpi/env.sh"
bin=${user_bin:-${LOCKSTEP_MPI:-${LOCKSTEP:-$root/build/lockstep}}}
mpirun=${user_mpirun:-${MPIRUN:-$(command -v mpirun || true)}}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [[ -z "$mpirun" || "${gpus:-0}" -lt 1 ]]; then
  echo "mpi_bfs skipped: needs GPUs (found ${gpus:-0}) and mpirun (${mpirun:-none})" | tee "$txt"
  exit 0
fi
probe=$($mpirun -np 1 "$bin" bfs /nonexistent.mtx --distributed 2>&1)
if [[ "$probe" != *"rank 0: "*"/nonexistent.mtx"* ]]; then
  { echo "mpi_bfs skipped: $bin under $mpirun does not run bfs --distributed:"; head -5 <<< "$probe"; } | tee "$txt"
  exit 0
fi
unset LOCKSTEP_DEVICE  # rank L takes GPU L
# A run cut by a caller's timeout must not leave ranks behind (the ranks of a cut
# MPI CG run seem to have outlived it and slowed the next benchmark in the call): on exit,
# whatever the cause, every process of this binary ends.
trap 'pkill -TERM -f -- "^$bin (cg|bfs) " 2> /dev/null; sleep 1; pkill -KILL -f -- "^$bin (cg|bfs) " 2> /dev/null' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp
cores=$(nproc)
# OpenMP's idle threads sleep, as in tools/bench/bfs.sh (one GPU on the 64-core host:
# threads spinning after the validation's regions slowed the next searches by 1-9 ms); the
# ranks' validation and CPU levels use OpenMP too. Not yet measured under MPI.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
big_default=(29 4)
[[ $gpus -ge 8 ]] && big_default=(30 8)
k=${SOURCES:-8} kbig=${BIG_SOURCES:-4} big_scale=${BIG_SCALE:-${big_default[0]}}
big_np=${BIG_NP:-${big_default[1]}}
parts=${PARTS:-one strong weak}
t_start=$SECONDS
: > "$txt"
declare -A gteps
run() {  # run TAG NP ARGS...: one command, its lines, its wall time
  local tag=$1 np=$2; shift 2
  local halo=()
  [[ -n "${LOCKSTEP_MPI_HALO:-}" ]] && halo=(-x LOCKSTEP_MPI_HALO)
  [[ -n "${LOCKSTEP_BUILD_TIMES:-}" ]] && halo+=(-x LOCKSTEP_BUILD_TIMES)
  local cmd=($mpirun -np "$np" --bind-to none -x OMP_NUM_THREADS=$((cores / np)) -x OMP_WAIT_POLICY "${halo[@]}" "$bin" bfs "$@" ${BFS_ARGS:-})
  echo "# $tag: ${cmd[*]}" >> "$txt"
  local start=$SECONDS
  local out
  out=$("${cmd[@]}" 2>> "$OUT/mpi_bfs.err")
  echo "$out" | tee -a "$txt" > /dev/null
  echo "wall_s=$((SECONDS - start)) tag=$tag np=$np" | tee -a "$txt"
  grep -o 'shared_peers=[0-9]*' <<< "$out" | head -1 | sed "s/^/  $tag /"
  grep '^timeline level=' <<< "$out" | sed "s/^/  $tag /"
  local last=$(tail -1 <<< "$out")
  gteps[$tag]=$(kv gteps <<< "$last")
  echo "$tag np=$np ${last}"
}
if [[ " $parts " == *" one "* ]]; then
  cmd=("$bin" bfs --rmat 24 --sources "$k" --validate)
  echo "# one-gpu: ${cmd[*]}" >> "$txt"
  start=$SECONDS
  last=$("${cmd[@]}" 2>> "$OUT/mpi_bfs.err" | grep -v '^algorithm=' | tee -a "$txt" | tail -1)
  echo "one-gpu np=0 $last"
  gteps[one]=$(kv gteps <<< "$last")
  echo "wall_s=$((SECONDS - start)) tag=one-gpu np=0" | tee -a "$txt"
  run dist24 1 --rmat 24 --distributed --sources "$k" --validate
  a=${gteps[one]:-} b=${gteps[dist24]:-}
  [[ -n "$a" && -n "$b" ]] && awk -v a="$a" -v b="$b" 'BEGIN { printf "one scale=24 gteps_bfs=%s gteps_distributed_np1=%s ratio=%.3f goal=0.9\n", a, b, b / a }' | tee -a "$txt"
fi
if [[ " $parts " == *" strong "* || " $parts " == *" weak "* ]]; then
  run s26x1 1 --rmat 26 --distributed --sources "$k" --validate
fi
if [[ " $parts " == *" strong "* ]]; then
  for np in 2 4 8; do [[ $gpus -ge $np ]] && run s26x$np "$np" --rmat 26 --distributed --sources "$k" --validate; done
  for np in 2 4 8; do
    a=${gteps[s26x1]:-} b=${gteps[s26x$np]:-}
    [[ -n "$a" && -n "$b" ]] && awk -v a="$a" -v b="$b" -v np="$np" 'BEGIN { printf "strong scale=26 np=%d gteps_1=%s gteps=%s speedup=%.3f efficiency=%.3f\n", np, a, b, b / a, b / a / np }' | tee -a "$txt"
  done
fi
if [[ " $parts " == *" weak "* ]]; then
  [[ $gpus -ge 2 ]] && run w27x2 2 --rmat 27 --distributed --sources "$k" --validate
  [[ $gpus -ge 4 ]] && run w28x4 4 --rmat 28 --distributed --sources "$k" --validate
  [[ $gpus -ge 8 ]] && run w29x8 8 --rmat 29 --distributed --sources "$k" --validate
  for t in w27x2:2:27 w28x4:4:28 w29x8:8:29; do
    IFS=: read -r tag np s <<< "$t"
    a=${gteps[s26x1]:-} b=${gteps[$tag]:-}
    [[ -n "$a" && -n "$b" ]] && awk -v a="$a" -v b="$b" -v np="$np" -v s="$s" 'BEGIN { printf "weak scale=%d np=%d gteps_1=%s gteps=%s efficiency=%.3f\n", s, np, a, b, b / a / np }' | tee -a "$txt"
  done
fi
if [[ " $parts " == *" big "* && $gpus -ge $big_np ]]; then
  run "b${big_scale}x$big_np" "$big_np" --rmat "$big_scale" --distributed --sources "$kbig" --validate
fi
echo "mpi_bfs total_s=$((SECONDS - t_start))" | tee -a "$txt"
py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
"$py" "$(dirname "$0")/fit_mpi_bfs.py" "$txt" 2>> "$OUT/mpi_bfs.err" | tee -a "$txt"
"$py" "$(dirname "$0")/plot_mpi_bfs.py" "$txt" "$OUT/mpi_bfs.png" 2>> "$OUT/mpi_bfs.err" ||
  echo "plot skipped (see $OUT/mpi_bfs.err)"
exit 0
