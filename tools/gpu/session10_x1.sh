#!/usr/bin/env bash
# Session 10's one-GPU call (nvidia-h100-x1), after tools/gpu/prepare.sh, prepare_search.sh:
# the search kernel variants beside CUDASW++4.0 and parasail (session10_search_variants.sh),
# then the long-pair rule of align at 200k and 10^6 (tools/bench/align.sh CASES=rule).
set -uo pipefail
source tools/bench/kv.sh
bash tools/gpu/session10_search_variants.sh
bash .carry/opencl-env.sh > /dev/null
export XDG_CACHE_HOME=/tmp/lc LOCKSTEP_DEVICE=nvidia
mkdir -p $OUT/align
t0=$SECONDS
LOCKSTEP=$PWD/.carry/lockstep GENOMES=$PWD/.carry/genomes CASES=rule OUT=$OUT/align \
  timeout 90 bash tools/bench/align.sh > $OUT/align/log.txt 2>&1
echo "align rc=$? s=$((SECONDS-t0))"; grep "^case=" $OUT/align/align.txt |
  kv -p case n barrier local_size cells_per_item tile_cols score_bits score end_a end_b gcups
