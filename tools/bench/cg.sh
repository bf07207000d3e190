#!/usr/bin/env bash
# Conjugate gradients on one device (is single-GPU pipelined CG no slower than classic
# CG per iteration?): ms per iteration of `lockstep cg` for classic, pipelined (its SpMV inside
# the update kernel where the matrix's SpMV is one row per work-item, as here) and pipelined
# --separate-spmv (the SpMV its own launch, what several ranks run), without and with Jacobi, on
# laplace3d 256 (16.8M rows, 117M nonzeros) and laplace2d 4096 (16.8M rows), fp64, generated in
# memory ("gen:KIND:N"), each run verified against the exact solution when it converges.
# Writes $OUT/cg.txt (the last line of each run; one `ratio` line per matrix and
# preconditioner: each pipelined variant / classic ms per iteration) and, with matplotlib,
# $OUT/cg.png.
# Use: OUT=/tmp/out [LOCKSTEP=build/lockstep] [MAXIT=1500] [MATRICES="gen:laplace3d:256 ..."]
#      tools/bench/cg.sh   (about 2 min on an H100 at MAXIT=400: generating a matrix takes ~8 s)
set -uo pipefail
: "${OUT:?set OUT to the output folder}"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${LOCKSTEP:-$root/build/lockstep}
source "$root/tools/bench/kv.sh"
mkdir -p "$OUT"
txt="$OUT/cg.txt"
: > "$txt"
for m in ${MATRICES:-gen:laplace3d:256 gen:laplace2d:4096}; do
  for p in none jacobi; do
    declare -A per_it=()
    for a in classic pipelined pipelined-separate; do
      extra=()
      [[ $a == pipelined-separate ]] && extra=(--separate-spmv)
      cmd=("$bin" cg "$m" --algorithm "${a%-separate}" "${extra[@]}" --preconditioner "$p"
           --tol 1e-8 --maxit "${MAXIT:-1500}")
      echo "# ${cmd[*]}" >> "$txt"
      line=$("${cmd[@]}" 2>> "$OUT/cg.err" | tail -1)
      echo "$line" | tee -a "$txt"
      per_it[$a]=$(kv ms_per_iteration <<< "$line")
    done
    if [[ -n "${per_it[classic]}" && -n "${per_it[pipelined]}" && -n "${per_it[pipelined-separate]}" ]]; then
      awk -v m="$m" -v p="$p" -v c="${per_it[classic]}" -v q="${per_it[pipelined]}" -v s="${per_it[pipelined-separate]}" \
        'BEGIN { printf "ratio matrix=%s preconditioner=%s classic_ms_per_iteration=%s pipelined_ms_per_iteration=%s separate_ms_per_iteration=%s pipelined_over_classic=%.3f separate_over_classic=%.3f\n", m, p, c, q, s, q / c, s / c }' | tee -a "$txt"
    fi
  done
done
py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
"$py" "$(dirname "$0")/plot_cg.py" "$txt" "$OUT/cg.png" 2>> "$OUT/cg.err" || echo "plot skipped (see $OUT/cg.err)"
exit 0
