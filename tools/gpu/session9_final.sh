#!/usr/bin/env bash
# Session 9's last GPU call: the whole doctest suite on the H100, issue 34's search beside
# CUDASW++4.0 and parasail (tools/bench/search.sh), the long pair before/after (tools/bench/align.sh
# CASES=dpx). Everything lands in $OUT/all.tar.gz plus three summaries.
set -uo pipefail
bash .carry/opencl-env.sh > /dev/null
export XDG_CACHE_HOME=/tmp/lc LOCKSTEP_DEVICE=nvidia PATH=$PATH:/usr/local/cuda/bin
mkdir -p $OUT/r/search $OUT/r/align
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/r/device.txt
.carry/lockstep devices | tee -a $OUT/r/device.txt
t0=$SECONDS
timeout 170 .carry/lockstep_tests > $OUT/r/suite.txt 2>&1; echo "suite rc=$? s=$((SECONDS-t0))"
grep -E "^\[doctest\] (test cases|assertions)|ERROR|FAILED" $OUT/r/suite.txt | head -20
t0=$SECONDS
LOCKSTEP=$PWD/.carry/lockstep OUT=$OUT/r/search STEP_TIMEOUT=110 timeout 250 bash tools/bench/search.sh > $OUT/r/search/log.txt 2>&1
echo "search rc=$? s=$((SECONDS-t0))"; grep "^case=" $OUT/r/search/search.txt
t0=$SECONDS
OLD=$PWD/.carry/lockstep-old LOCKSTEP=$PWD/.carry/lockstep GENOMES=$PWD/.carry/genomes CASES=dpx OUT=$OUT/r/align timeout 120 bash tools/bench/align.sh > $OUT/r/align/log.txt 2>&1
echo "align rc=$? s=$((SECONDS-t0))"; cat $OUT/r/align/align.txt 2>/dev/null | head -40
cp $OUT/r/suite.txt $OUT/r/search/search.txt $OUT/r/align/align.txt $OUT/ 2>/dev/null
tar -czf $OUT/all.tar.gz -C $OUT r && rm -rf $OUT/r
