#!/usr/bin/env bash
# The device search on the GPU machine (issue 34), from a folder that tools/gpu/search_prepare.sh
# filled: the search tests (exact on the GPU: the DPX kernel against align_cpu), a first
# throughput figure on the mmseqs2 example DB x its 500 queries, top 10 (tools/gpu/search_probe),
# and CUDASW++4.0 built from source and run on the same data in the same run. Writes $OUT.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-/tmp/search-out}
mkdir -p "$OUT"
bash "$here/opencl-env.sh"
export LOCKSTEP_DEVICE=${LOCKSTEP_DEVICE:-nvidia} XDG_CACHE_HOME=/tmp/lockstep-cache
export LOCKSTEP_SEARCH_DATA="$here"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/device.txt"
(cd "$here/cudasw4" &&
 sed -i 's/-arch=native/-arch=sm_90/; s/ -lnvToolsExt//; s/^COMPILE = $(COMPILER)/COMPILE = $(COMPILER) -x cu/' Makefile &&
 make -j12 align makedb > "$OUT/cudasw4-build.log" 2>&1 || echo "cudasw4 build failed" >> "$OUT/cudasw4-build.log") &
build=$!
timeout 120 "$here/lockstep_tests" -tc='search*' > "$OUT/tests-gpu.txt" 2>&1
echo "tests rc=$?"; grep -E "dpx|test cases|assertions" "$OUT/tests-gpu.txt"
LOCKSTEP_SHOW_BUILDS=1 SHAPES=${SHAPES:-128:64,128:32,256:64,64:64} timeout 150 "$here/search_probe" \
  "$here/QUERY.fasta.gz" "$here/DB.fasta.gz" 10 "$OUT/hits-lockstep.tsv" 2>&1 | tee "$OUT/probe.txt"
wait $build
if [[ -x "$here/cudasw4/align" ]]; then
  mkdir -p /tmp/cudasw4db
  "$here/cudasw4/makedb" "$here/DB.fasta.gz" /tmp/cudasw4db/mm > "$OUT/cudasw4.txt" 2>&1
  for rep in 1 2; do
    s=$(date +%s%N)
    "$here/cudasw4/align" --query "$here/QUERY.fasta.gz" --db /tmp/cudasw4db/mm --top 10 \
      --verbose --dpx --tsv --of "$OUT/hits-cudasw4.tsv" >> "$OUT/cudasw4.txt" 2>&1
    echo "cudasw4 --dpx run $rep: $(( ($(date +%s%N) - s) / 1000000 )) ms wall" | tee -a "$OUT/cudasw4.txt"
  done
  grep -i -E "gcups|tcups|time" "$OUT/cudasw4.txt" | tail -8
fi
