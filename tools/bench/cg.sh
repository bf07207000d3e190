#!/usr/bin/env bash
# Conjugate gradients on one device (issue 24's "single-GPU pipelined CG no slower than classic
# CG per iteration"): ms per iteration of `lockstep cg` for classic and pipelined, without and
# with Jacobi, on laplace3d 256 (16.8M rows, 117M nonzeros) and laplace2d 4096 (16.8M rows),
# fp64, generated in memory ("gen:KIND:N"), each run verified against the exact solution.
# Writes $OUT/cg.txt (the last line of each run; one `ratio` line per matrix and
# preconditioner: pipelined / classic ms per iteration).
# Use: OUT=/tmp/out [LOCKSTEP=build/lockstep] [MAXIT=1500] [MATRICES="gen:laplace3d:256 ..."]
#      tools/bench/cg.sh   (about 1 min on an H100)
set -uo pipefail
: "${OUT:?set OUT to the output folder}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${LOCKSTEP:-$root/build/lockstep}
mkdir -p "$OUT"
txt="$OUT/cg.txt"
: > "$txt"
for m in ${MATRICES:-gen:laplace3d:256 gen:laplace2d:4096}; do
  for p in none jacobi; do
    declare -A per_it=()
    for a in classic pipelined; do
      cmd=("$bin" cg "$m" --algorithm "$a" --preconditioner "$p" --tol 1e-8 --maxit "${MAXIT:-1500}")
      echo "# ${cmd[*]}" >> "$txt"
      line=$("${cmd[@]}" 2>> "$OUT/cg.err" | tail -1)
      echo "$line" | tee -a "$txt"
      per_it[$a]=$(sed -n 's/.* ms_per_iteration=\([^ ]*\).*/\1/p' <<< "$line")
    done
    if [[ -n "${per_it[classic]}" && -n "${per_it[pipelined]}" ]]; then
      awk -v m="$m" -v p="$p" -v c="${per_it[classic]}" -v q="${per_it[pipelined]}" \
        'BEGIN { printf "ratio matrix=%s preconditioner=%s classic_ms_per_iteration=%s pipelined_ms_per_iteration=%s pipelined_over_classic=%.3f\n", m, p, c, q, q / c }' | tee -a "$txt"
    fi
  done
done
exit 0
