#!/usr/bin/env bash
# Distributed CG on 1 and 2 GPUs of one host (issues 14, 24), fp64, classic and pipelined
# (ALGS): ms per iteration of
# `lockstep cg --distributed` under mpirun -np 1 and -np 2 on laplace3d 256 (16.8M rows, 117M
# nonzeros) and laplace2d 4096 (the same rows), both generated in memory on rank 0
# ("gen:KIND:N"), plus each rank's SpMV timeline (pack, download, MPI, upload; interior and
# boundary rows; ms from the pack kernel's start). Writes $OUT/mpi_cg.txt (key=value lines,
# with speedup and efficiency per matrix) and, with matplotlib, $OUT/mpi_cg.png.
# Needs 2 GPUs and an MPI binary: exits 0 with a note otherwise, so tools/gpu/run.sh may run it
# everywhere. MPI comes from .carry/mpi (tools/gpu/prepare_mpi.sh) when present, else PATH.
# Use: OUT=/tmp/out [LOCKSTEP_MPI=.carry/mpi/lockstep] [MPIRUN=mpirun] [MAXIT=1500] [NPS="1 2"]
#      [ALGS="classic pipelined"]
#      [MATRICES="gen:laplace3d:256 gen:laplace2d:4096"] tools/bench/mpi_cg.sh
# (about 2-4 min on 2 H200s; give tools/gpu/run.sh BENCH_TIMEOUT=600).
set -uo pipefail
: "${OUT:?set OUT to the output folder}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mkdir -p "$OUT"
txt="$OUT/mpi_cg.txt"
user_bin=${LOCKSTEP_MPI:-} user_mpirun=${MPIRUN:-}
[[ -f "$root/.carry/mpi/env.sh" ]] && source "$root/.carry/mpi/env.sh"
bin=${user_bin:-${LOCKSTEP_MPI:-${LOCKSTEP:-$root/build/lockstep}}}
mpirun=${user_mpirun:-${MPIRUN:-$(command -v mpirun || true)}}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [[ -z "$mpirun" || "${gpus:-0}" -lt 2 ]]; then
  echo "mpi_cg skipped: needs 2 GPUs (found ${gpus:-0}) and mpirun (${mpirun:-none})" | tee "$txt"
  exit 0
fi
# A probe: an MPI build under a working mpirun names rank 0 in its error for a missing file.
probe=$($mpirun -np 1 "$bin" cg /nonexistent.mtx --distributed 2>&1)
if [[ "$probe" != *"rank 0: /nonexistent.mtx"* ]]; then
  { echo "mpi_cg skipped: $bin under $mpirun does not run --distributed:"; head -5 <<< "$probe"; } | tee "$txt"
  exit 0
fi
unset LOCKSTEP_DEVICE  # each rank takes GPU (local rank) among the GPUs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp
maxit=${MAXIT:-1500}
: > "$txt"
declare -A per_it  # keyed by matrix,np; reset per algorithm below
for alg in ${ALGS:-classic pipelined}; do
per_it=()
for m in ${MATRICES:-gen:laplace3d:256 gen:laplace2d:4096}; do
  for np in ${NPS:-1 2}; do
    cmd=($mpirun -np "$np" --bind-to none "$bin" cg "$m" --distributed --tol 1e-8 --maxit "$maxit" --algorithm "$alg")
    echo "# ${cmd[*]}" >> "$txt"
    start=$SECONDS
    "${cmd[@]}" 2>> "$OUT/mpi_cg.err" | grep -E '^(timeline|matrix=)' | tee -a "$txt"
    echo "wall_s=$((SECONDS - start)) matrix=$m np=$np" >> "$txt"
    line=$(grep "^matrix=$m " "$txt" | grep "algorithm=$alg " | grep " ranks=$np\$" | tail -1)
    per_it[$m,$np]=$(sed -n 's/.* ms_per_iteration=\([^ ]*\).*/\1/p' <<< "$line")
  done
  a=${per_it[$m,1]:-} b=${per_it[$m,2]:-}
  if [[ -n "$a" && -n "$b" ]]; then
    awk -v m="$m" -v g="$alg" -v a="$a" -v b="$b" 'BEGIN { printf "speedup matrix=%s algorithm=%s ms_per_iteration_1=%s ms_per_iteration_2=%s speedup=%.3f efficiency=%.3f\n", m, g, a, b, a / b, a / b / 2 }' | tee -a "$txt"
  fi
done
done
py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
"$py" "$(dirname "$0")/plot_mpi_cg.py" "$txt" "$OUT/mpi_cg.png" 2>> "$OUT/mpi_cg.err" ||
  echo "plot skipped (see $OUT/mpi_cg.err)"
exit 0
