#!/usr/bin/env bash
# Session 9's second GPU call: the doctest suite with the CLI beside it, then the search again
# with CUDASW++4.0 (its makedb folder created first).
set -uo pipefail
bash .carry/opencl-env.sh > /dev/null
export XDG_CACHE_HOME=/tmp/lc LOCKSTEP_DEVICE=nvidia PATH=$PATH:/usr/local/cuda/bin
export LOCKSTEP_CLI=$PWD/.carry/lockstep LOCKSTEP_SOURCE_DIR=$PWD
mkdir -p $OUT/r/search
t0=$SECONDS
timeout 200 .carry/lockstep_tests > $OUT/r/suite.txt 2>&1; echo "suite rc=$? s=$((SECONDS-t0))"
grep -E "^\[doctest\] (test cases|assertions)|TEST CASE:|ERROR" $OUT/r/suite.txt | head -30
t0=$SECONDS
LOCKSTEP=$PWD/.carry/lockstep OUT=$OUT/r/search STEP_TIMEOUT=110 timeout 280 bash tools/bench/search.sh > $OUT/r/search/log.txt 2>&1
echo "search rc=$? s=$((SECONDS-t0))"; grep "^case=" $OUT/r/search/search.txt; tail -3 $OUT/r/search/cudasw.log
cp $OUT/r/suite.txt $OUT/r/search/search.txt $OUT/ 2>/dev/null
tar -czf $OUT/all.tar.gz -C $OUT r && rm -rf $OUT/r
