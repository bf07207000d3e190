#!/usr/bin/env bash
# Distributed CG on a lent machine with several GPUs (nvidia-h100-x4), from the repository root with
# .carry/mpi carried (tools/gpu/prepare_mpi.sh, run here first: it builds this tree's lockstep
# and MPI tests): the MPI test binary on the GPUs, one rank per GPU (-np 2 and -np 4; its cases
# run both halo paths, shared memory and MPI, and a rank without rows) into
# $OUT/mpi-tests-npP.txt, then tools/bench/mpi_cg.sh (NPS="1 2 4", HALOS="shm mpi", ALGS="classic
# single-reduction pipelined" unless set) into $OUT: the `run` lines, each with its per-rank timeline, the summary and table,
# the plot. The free space of /dev/shm (the segments live there) goes first.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/mpi_setup.sh"  # root, carry, OUT, env, $gpus
for np in 2 4; do
  [[ $np -le ${gpus:-0} ]] || continue
  timeout 240 "$MPIRUN" -np "$np" --bind-to none "$carry/lockstep_mpi_tests" > "$OUT/mpi-tests-np$np.txt" 2>&1
  echo "mpi tests np=$np rc=$?"
  grep -E 'test cases|assertions' "$OUT/mpi-tests-np$np.txt" | sort | uniq -c
done
NPS=${NPS:-1 2 4} HALOS=${HALOS:-shm mpi} bash "$root/tools/bench/mpi_cg.sh"
