# Sourced by tools/gpu/mpi_cg.sh and mpi_bfs.sh on a lent machine with several GPUs: the carried
# MPI build (.carry/mpi, tools/gpu/prepare_mpi.sh) registered and on PATH, the kernel cache in
# /tmp, one GPU a rank (LOCKSTEP_DEVICE unset: rank L takes GPU L), the free space of /dev/shm
# (the shared-memory segments live there) printed, and $gpus, the GPUs present.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
carry="$root/.carry/mpi"
: "${OUT:?set OUT to the output folder}"
mkdir -p "$OUT"
bash "$carry/opencl-env.sh"
source "$carry/env.sh"
export XDG_CACHE_HOME=/tmp/lockstep-cache LOCKSTEP_SOURCE_DIR="$root"
unset LOCKSTEP_DEVICE
df -h /dev/shm | tail -1 | sed 's|^|# /dev/shm: |'
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
