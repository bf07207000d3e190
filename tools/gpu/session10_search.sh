#!/usr/bin/env bash
# Session 10's search call (issue 34), one GPU (nvidia-h100-x1), after tools/gpu/prepare.sh and
# tools/gpu/prepare_search.sh filled .carry/: the search and align tests on the GPU, the search
# beside CUDASW++4.0 and parasail (tools/bench/search.sh: the example DB x 500 queries; 500 M
# residues x 50 queries end to end, on the device and in the kernels, with the kernel shapes of
# $SWEEP), the long pair's rule (tools/bench/align.sh CASES=rule: 200k x 180k and 10^6 x 10^6,
# the 200k shapes in 16 and 32 bits). Prints the result lines; everything in $OUT/all.tar.gz.
# Use: bash tools/gpu/session10_search.sh   (well inside 8 minutes)
set -uo pipefail
source tools/bench/kv.sh
bash .carry/opencl-env.sh > /dev/null
export XDG_CACHE_HOME=/tmp/lc LOCKSTEP_DEVICE=nvidia PATH=$PATH:/usr/local/cuda/bin
mkdir -p $OUT/r/search $OUT/r/align
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/r/device.txt
.carry/lockstep devices | tee -a $OUT/r/device.txt
t0=$SECONDS
LOCKSTEP_SEARCH_DATA=$PWD/.carry/mmseqs2 timeout 90 .carry/lockstep_tests -tc='search*,align gpu*' \
  > $OUT/r/tests.txt 2>&1
echo "tests rc=$? s=$((SECONDS-t0))"
grep -E "^\[doctest\] (test cases|assertions)|ERROR|FAILED" $OUT/r/tests.txt | head -20
t0=$SECONDS
LOCKSTEP=$PWD/.carry/lockstep OUT=$OUT/r/search STEP_TIMEOUT=100 SWEEP="${SWEEP:-128:32 256:32 64:32 128:16}" \
  timeout 300 bash tools/bench/search.sh > $OUT/r/search/log.txt 2>&1
echo "search rc=$? s=$((SECONDS-t0))"; grep -E "^case=|^# differs" $OUT/r/search/search.txt
t0=$SECONDS
LOCKSTEP=$PWD/.carry/lockstep GENOMES=$PWD/.carry/genomes CASES=rule OUT=$OUT/r/align \
  timeout 80 bash tools/bench/align.sh > $OUT/r/align/log.txt 2>&1
echo "align rc=$? s=$((SECONDS-t0))"; grep "^case=" $OUT/r/align/align.txt |
  kv -p case n barrier local_size cells_per_item tile_cols score_bits score end_a end_b gcups
cp $OUT/r/tests.txt $OUT/r/search/search.txt $OUT/r/align/align.txt $OUT/ 2>/dev/null
tar -czf $OUT/all.tar.gz -C $OUT r && rm -rf $OUT/r
