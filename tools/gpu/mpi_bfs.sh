#!/usr/bin/env bash
# The distributed BFS on a lent machine with several GPUs (nvidia-h200-x4 or -x8), from the
# repository root with .carry/mpi carried (tools/gpu/prepare_mpi.sh, run here first: it builds
# this tree's lockstep and MPI tests): the MPI test binary's BFS cases on the GPUs, one rank per
# GPU (-np 2, 4, 8: the load-balanced top-down on hubs, the bottom-up bitmap, the top-down pairs
# through shared memory and through MPI, bitmap discoveries, tiny levels, a rank without
# vertices) into $OUT/mpi-bfs-tests-npP.txt, then tools/bench/mpi_bfs.sh (PARTS unless set: one
# strong weak; on 8 GPUs PARTS=strong, then PARTS=weak, then PARTS=big, each its own call: see
# that script) into $OUT. The free space of /dev/shm goes first: the bitmap segments live there
# (2 x n / 8 / ranks bytes a rank) and the top-down pair segments (2 x 8 x min(2^22, n - the
# rank's vertices) bytes a rank: up to 64 MiB). The timeline lines' shm_ranks= count the ranks
# whose pairs went through shared memory at that level.
# Use: OUT=/tmp/out [SOURCES=8] [PARTS=...] [LOCKSTEP_MPI_HALO=mpi] bash tools/gpu/mpi_bfs.sh
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/mpi_setup.sh"  # root, carry, OUT, env, $gpus
for np in 2 4 8; do
  [[ $np -le ${gpus:-0} ]] || continue
  timeout 120 "$MPIRUN" -np "$np" --bind-to none "$carry/lockstep_mpi_tests" -tc='*bfs*' \
    > "$OUT/mpi-bfs-tests-np$np.txt" 2>&1
  echo "mpi bfs tests np=$np rc=$?"
  grep -E 'test cases|assertions' "$OUT/mpi-bfs-tests-np$np.txt" | sort | uniq -c
done
SOURCES=${SOURCES:-8} bash "$root/tools/bench/mpi_bfs.sh"
