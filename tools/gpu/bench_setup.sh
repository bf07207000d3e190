# Sourced by the one-GPU bench scripts (tools/gpu/spmm_bench.sh, python_bench.sh) on the lent
# machine, after they set OUT's default: the NVIDIA ICD registered, the kernel cache in /tmp,
# the NVIDIA device, $root, $carry, $L (the carried lockstep) and $start (for elapsed seconds).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
carry="$root/.carry"
mkdir -p "$OUT"
bash "$carry/opencl-env.sh" >/dev/null 2>&1 || true
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/lockstep-cache} LOCKSTEP_DEVICE=${LOCKSTEP_DEVICE:-nvidia}
L="$carry/lockstep"
start=$SECONDS
