#!/usr/bin/env bash
# SpMM against cuSPARSE on the GPU, untuned and tuned (the goal: lockstep >= cuSPARSE SpMM for
# k = 4, 8, 16, 32, float, row-major, on rmat21 and laplace2d 4096), in one call under 10
# minutes (LAPLACE_TUNE off), key=value lines:
#  - bench=spmm_rule    lockstep spmm untuned (the rule: merge on rmat21's irregular rows, team on
#                       the Laplacian), k = 4,8,16,32 in one process (one read of the matrix)
#  - bench=spmm_tuned   lockstep spmm --tune on rmat21 (every valid merge shape; TUNE_ALGORITHM=auto:
#                       team's too), the fastest verified one stored and reported; a `tuned=...
#                       best ...` line before each
#  - anchor=...         cuSPARSE SpMM, each CSR algorithm (tools/bench/cusparse_spmm.cu)
# Here first:  tools/gpu/prepare.sh                 (carry .carry)
# There:       bash tools/gpu/spmm_bench.sh         (OUT=dir keeps the logs; default /tmp/spmmbench)
# LAPLACE_TUNE=1 also tunes the Laplacian (about 2 more minutes); TUNE_S caps the rmat21 tune.
set -uo pipefail
OUT=${OUT:-/tmp/spmmbench}
source "$(dirname "${BASH_SOURCE[0]}")/bench_setup.sh"  # root, carry, env, L, start
(nvcc -O3 -std=c++17 -arch=sm_90 "$root/tools/bench/cusparse_spmm.cu" -lcusparse -o "$OUT/cusparse_spmm" \
   > "$OUT/nvcc.log" 2>&1 || echo "nvcc failed" >> "$OUT/nvcc.log") &
nv=$!
"$L" gen rmat 21 16 -o "$OUT/rmat21.mtx" > /dev/null
"$L" gen laplace2d 4096 -o "$OUT/laplace4096.mtx" > /dev/null &  # for cuSPARSE only
lp=$!
echo "bench=setup matrices_s=$((SECONDS - start))"
spmm() {  # tag, timeout, args...: the result lines, line-buffered (a cut run keeps its k's)
  local tag=$1 limit=$2; shift 2
  timeout "$limit" stdbuf -oL "$L" spmm "$@" --precision float --repeat 5 2> "$OUT/$tag.err" \
    | grep --line-buffered -E '^(matrix|tuned)=' | sed -u "s/^/bench=$tag /"
  echo "bench=$tag rc=${PIPESTATUS[0]} s=$((SECONDS - start))"
}
spmm spmm_rule 90 "$OUT/rmat21.mtx" --k 4,8,16,32
spmm spmm_rule 60 gen:laplace2d:4096 --k 4,8,16,32
wait $nv
wait $lp
for m in rmat21 laplace4096; do
  [[ -x "$OUT/cusparse_spmm" ]] && timeout 45 "$OUT/cusparse_spmm" "$OUT/$m.mtx" float 4,8,16,32 row
done
# the tune last: cut by its limit, it still reports the k's before it
# (rmat21: the merge shapes alone, ~190 candidates: team takes ~15 ms there;
# TUNE_ALGORITHM=auto searches both)
spmm spmm_tuned "${TUNE_S:-270}" "$OUT/rmat21.mtx" --k 4,8,16,32 --tune --algorithm "${TUNE_ALGORITHM:-merge}"
[[ -n "${LAPLACE_TUNE:-}" ]] && spmm spmm_tuned 150 gen:laplace2d:4096 --k 4,8,16,32 --tune
echo "bench=done seconds=$((SECONDS - start))"
