#!/usr/bin/env bash
# The device search on the GPU machine (issue 34), from a folder that tools/gpu/search_prepare.sh
# filled: the search tests (exact on the GPU: the DPX kernel against align_cpu), the mmseqs2
# example DB x its 500 queries, top 10 (tools/gpu/search_probe: end to end, kernels and ends
# apart), CUDASW++4.0 built from source on the same data in the same run (CUDASW=1), the PTX and
# SASS of the search program (SASS=1: ptxas/cuobjdump, instruction counts of search_inter), and a
# large database (GROW=residues, QUERIES=K) for both. Writes $OUT: the summaries at its top (the
# device tool returns at most 8 files), the rest (hits, logs, PTX/SASS) in extras.tar.gz.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-/tmp/search-out}
mkdir -p "$OUT/extras"
X="$OUT/extras"
trap 'tar -czf "$OUT/extras.tar.gz" -C "$OUT" extras && rm -rf "$X"' EXIT
bash "$here/opencl-env.sh"
export LOCKSTEP_DEVICE=${LOCKSTEP_DEVICE:-nvidia} XDG_CACHE_HOME=/tmp/lockstep-cache
export LOCKSTEP_SEARCH_DATA="$here" PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/device.txt"
cw="$here/cudasw4"
if [[ "${CUDASW:-1}" == 1 ]]; then
  (cd "$cw" &&
   sed -i 's/-arch=native/-arch=sm_90/; s/ -lnvToolsExt//; s/^COMPILE = $(COMPILER)/COMPILE = $(COMPILER) -x cu/' Makefile &&
   make -j12 align makedb > "$X/cudasw4-build.log" 2>&1 || echo "cudasw4 build failed" >> "$X/cudasw4-build.log") &
  build=$!
fi
timeout 150 "$here/lockstep_tests" -tc='search*' > "$OUT/tests-gpu.txt" 2>&1
echo "tests rc=$?"; grep -E "dpx|test cases|assertions" "$OUT/tests-gpu.txt"
[[ "${CUDASW:-1}" == 1 ]] && wait $build  # its compile would share the host cores with the ranking
env -u GROW -u QUERIES LOCKSTEP_SHOW_BUILDS=1 DPX2_LOG=${DPX2_LOG:-0} SHAPES=${SHAPES:-128:64} timeout 150 \
  "$here/search_probe" "$here/QUERY.fasta.gz" "$here/DB.fasta.gz" 10 "$X/hits-lockstep.tsv" \
  2>&1 | tee "$OUT/probe.txt"
if [[ "${PORTABLE:-0}" == 1 ]]; then  # the same kernel without DPX, same run
  env -u GROW -u QUERIES LOCKSTEP_SEARCH_DPX=0 SHAPES=128:64 timeout 60 "$here/search_probe" \
    "$here/QUERY.fasta.gz" \
    "$here/DB.fasta.gz" 10 2>&1 | tee "$OUT/probe-portable.txt"
fi
if [[ "${SASS:-0}" == 1 ]]; then
  # The program cache holds NVIDIA's binary (PTX text) after the key: cut from ".version".
  for f in /tmp/lockstep-cache/lockstep/programs/*.bin; do
    grep -aq "search_inter" "$f" || continue
    n=$(basename "$f" .bin)
    python3 -c "import sys; b=open(sys.argv[1],'rb').read(); i=b.find(b'.version'); open(sys.argv[2],'wb').write(b[b.rfind(b'//',0,i) if b.rfind(b'//',0,i)>=0 else i:].rstrip(b'\0'))" "$f" "$X/$n.ptx"
    grep -m3 -E "^\.(version|target)|SW_DPX" "$X/$n.ptx"
    ptxas -arch=sm_90 -v "$X/$n.ptx" -o "/tmp/$n.cubin" > "$X/$n.ptxas.txt" 2>&1
    grep -A1 "search_inter\|search_ends" "$X/$n.ptxas.txt" | grep -E "registers|spill|Function" | head -8
    cuobjdump -sass "/tmp/$n.cubin" > "$X/$n.sass" 2>&1
    awk '/Function : .*search_inter/{f=1} /Function : .*search_ends/{f=0} f' "$X/$n.sass" |
      grep -oE '^ +/\*[0-9a-f]+\*/ +[A-Z0-9_.]+' | awk '{print $2}' | sort | uniq -c | sort -rn |
      head -25 | tee "$X/$n.sass-counts.txt"
  done
  # Does this ptxas take the three-input forms at PTX ISA 8.0 (and not below)?
  for v in 7.8 8.0; do
    printf '.version %s\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p){\n.reg .b32 %%r<5>;\n.reg .b64 %%rd<2>;\nld.param.u64 %%rd1,[p];\nld.global.u32 %%r1,[%%rd1];\nmax.s16x2 %%r2,%%r1,%%r1,%%r1;\nmax.relu.s16x2 %%r3,%%r2,%%r1,%%r2;\nst.global.u32 [%%rd1],%%r3;\nret;\n}\n' "$v" > /tmp/max3.ptx
    ptxas -arch=sm_90 /tmp/max3.ptx -o /tmp/max3.cubin > /tmp/max3.log 2>&1 && echo "ptx $v: 3-input max accepted" || echo "ptx $v: refused: $(head -2 /tmp/max3.log)"
  done | tee "$X/max3.txt"
fi
if [[ "${CUDASW:-1}" == 1 && -x "$cw/align" ]]; then
  mkdir -p /tmp/cudasw4db
  "$cw/makedb" "$here/DB.fasta.gz" /tmp/cudasw4db/mm > "$OUT/cudasw4.txt" 2>&1
  for rep in 1 2; do
    s=$(date +%s%N)
    "$cw/align" --query "$here/QUERY.fasta.gz" --db /tmp/cudasw4db/mm --top 10 \
      --verbose --dpx --tsv --of "$X/hits-cudasw4.tsv" >> "$OUT/cudasw4.txt" 2>&1
    echo "cudasw4 --dpx run $rep: $(( ($(date +%s%N) - s) / 1000000 )) ms wall" | tee -a "$OUT/cudasw4.txt"
  done
  grep -i -E "gcups|tcups|time" "$OUT/cudasw4.txt" | tail -8
fi
if [[ -n "${GROW:-}" ]]; then
  GROW_FASTA=$([[ "${CUDASW:-1}" == 1 ]] && echo /tmp/big.fasta) GROW=$GROW QUERIES=${QUERIES:-20} \
    SHAPES=${BIG_SHAPES:-128:64} timeout 200 "$here/search_probe" "$here/QUERY.fasta.gz" \
    "$here/DB.fasta.gz" 10 2>&1 | tee "$OUT/probe-big.txt"
fi
if [[ "${CUDASW:-1}" == 1 && -x "$cw/align" && -s /tmp/big.fasta ]]; then
  zcat "$here/QUERY.fasta.gz" | awk -v k="${QUERIES:-20}" '/^>/{n++} n<=k' > /tmp/q-big.fasta
  mkdir -p /tmp/cudasw4big
  timeout 150 "$cw/makedb" /tmp/big.fasta /tmp/cudasw4big/big > "$OUT/cudasw4-big.txt" 2>&1
  s=$(date +%s%N)
  timeout 150 "$cw/align" --query /tmp/q-big.fasta --db /tmp/cudasw4big/big --top 10 --verbose \
    --dpx --tsv --of /tmp/hits-cudasw4-big.tsv >> "$OUT/cudasw4-big.txt" 2>&1
  echo "cudasw4 --dpx big: $(( ($(date +%s%N) - s) / 1000000 )) ms wall" | tee -a "$OUT/cudasw4-big.txt"
  grep -i -E "gcups|tcups" "$OUT/cudasw4-big.txt" | tail -4
fi
