#!/usr/bin/env bash
# The search kernel's variants on the H100 (issue 34's 5 TCUPS goal), one GPU (nvidia-h100-x1),
# after tools/gpu/prepare.sh and tools/gpu/prepare_search.sh filled .carry/: the search tests on
# the GPU (the variants' exactness test among them, DPX on), then tools/bench/search.sh with the
# default kernel (128:64 plain) and every shape:variant of $SWEEP on the large case (500 M
# residues x 50 queries) and on the example DB (x 500 queries), beside CUDASW++4.0 and parasail.
# Prints the result lines, then one compact line per lockstep run: case, kernel_tcups (the packed
# kernels' event time), device_tcups (the search's, host work overlapped), tcups (wall, reading
# included), same_hits (the run's hits byte for byte those of the default kernel). Everything in
# $OUT/all.tar.gz.
# Use: bash tools/gpu/session10_search_variants.sh   (about 5 minutes; search.sh capped at 290 s)
set -uo pipefail
bash .carry/opencl-env.sh > /dev/null
export XDG_CACHE_HOME=/tmp/lc LOCKSTEP_DEVICE=nvidia PATH=$PATH:/usr/local/cuda/bin
mkdir -p $OUT/r/search
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/r/device.txt
.carry/lockstep devices | tee -a $OUT/r/device.txt
t0=$SECONDS
LOCKSTEP_CLI=$PWD/.carry/lockstep LOCKSTEP_SOURCE_DIR=$PWD LOCKSTEP_SEARCH_DATA=$PWD/.carry/mmseqs2 timeout 60 .carry/lockstep_tests -tc='search*' \
  > $OUT/r/tests.txt 2>&1
echo "tests rc=$? s=$((SECONDS-t0))"
grep -E "^\[doctest\] (test cases|assertions)|ERROR|FAILED" $OUT/r/tests.txt | head -20
SWEEP=${SWEEP:-"128:64:prof2 128:64:skew 128:64:prof2+skew 128:32:plain 128:32:prof2 128:32:skew 128:32:prof2+skew 256:32:skew 64:64:skew"}
t0=$SECONDS
LOCKSTEP=$PWD/.carry/lockstep OUT=$OUT/r/search STEP_TIMEOUT=60 SWEEP="$SWEEP" \
  timeout 290 bash tools/bench/search.sh > $OUT/r/search/log.txt 2>&1
echo "search rc=$? s=$((SECONDS-t0))"; grep -E "^case=|^# differs" $OUT/r/search/search.txt
echo "# variants: case kernel_tcups device_tcups tcups same_hits (default: case=large / example, 128:64 plain)"
grep -E "^case=(large|example)[^ ]* tool=lockstep" $OUT/r/search/search.txt |
  grep -oE "^case=[^ ]+|same_hits=[01]|kernel_tcups=[0-9.]+|device_tcups=[0-9.]+| tcups=[0-9.]+|error=1" |
  paste -sd' ' | sed 's/ case=/\ncase=/g'
cp $OUT/r/tests.txt $OUT/r/search/search.txt $OUT/ 2>/dev/null
tar -czf $OUT/all.tar.gz -C $OUT r && rm -rf $OUT/r
