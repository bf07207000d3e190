#!/usr/bin/env bash
# Smith-Waterman benchmark: GCUPS against length on slices of the two genomes of
# ../shared/genomes (E. coli K-12 MG1655 rows, Vibrio cholerae O395 columns, never copied):
# 10k, 50k, 200k x 180k and 1M x 1M (the first megabase of each), for the flag-array pipeline,
# the tile-diagonal kernel under every barrier strategy and relaunch, a shape sweep at 200k, one
# traceback of the 1M pair, and on the host: the plain CPU reference (20k x 20k, one core),
# libssw on one core (50k x 50k) and libssw with 16 threads (16 independent slices of B against
# all of A, 200k x 180k: a throughput figure). Writes $OUT/align.txt (one line per run: the
# configuration keys then score= end_a= end_b= cells= ms= gcups=) and, with matplotlib,
# $OUT/align.png. Every device run of one size must report the same score and ends (checked by
# plot_align.py, which prints consistent=0/1).
# Case dpx: the flag pipeline of cl/sw_pipeline.cl on 200k x 180k and 1M x 1M with
# its DPX path (NVIDIA compute capability >= 9.0), the same kernel's portable path on the same
# device (LOCKSTEP_DPX=0), the old binary's pipeline when OLD names one (built from the commit
# before, e.g. by tools/bench/build_old.sh), and a shape sweep of the new pipeline at 1M x 1M.
# Use: LOCKSTEP=build/lockstep OUT=/tmp/out [GENOMES=dir] [SIZES="..."] [OLD=old/lockstep]
#      [CASES="size shape traceback host dpx rule"] tools/bench/align.sh
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP to the lockstep binary}" "${OUT:?set OUT to the output folder}"
here=$(cd "$(dirname "$0")" && pwd)
# The genomes: $GENOMES, else ../shared/genomes beside the checkout, else .carry/genomes (the GPU
# machine: tools/gpu/prepare.sh must copy /work/shared/genomes/*.fasta.gz there, about 2.8 MB).
genomes=${GENOMES:-}
for g in "$here/../../../shared/genomes" "$here/../../.carry/genomes"; do
  [[ -z "$genomes" && -f "$g/MG1655-K12.fasta.gz" ]] && genomes=$g
done
if [[ -z "$genomes" ]]; then
  echo "align.sh: no genomes (set GENOMES to the folder of MG1655-K12.fasta.gz and O395.fasta.gz)" >&2
  exit 1
fi
A=$genomes/MG1655-K12.fasta.gz
B=$genomes/O395.fasta.gz
sizes=${SIZES:-"10000,10000 50000,50000 200000,180000 1000000,1000000"}
strategies=${STRATEGIES:-"auto lock grouped-lock lock-free tree relaunch"}
mkdir -p "$OUT"
txt="$OUT/align.txt"
: > "$txt"
# run N M ARGS...: one alignment of A[0,N) x B[0,M); the configuration line and the result line
# of the CLI joined into one line of $txt.
cases=${CASES:-"size shape traceback host dpx"}
want() { [[ " $cases " == *" $1 "* ]]; }
bin=$LOCKSTEP
run() {
  local n=$1 m=$2
  shift 2
  echo "# $bin align --slice-a 0,$n --slice-b 0,$m $*" >> "$txt"
  local out
  out=$("$bin" align "$A" "$B" --slice-a "0,$n" --slice-b "0,$m" "$@" 2>> "$OUT/align.err")
  local rc=$?
  if [[ $rc -ne 0 ]]; then
    echo "error rc=$rc n=$n m=$m args=\"$*\"" | tee -a "$txt"
    return
  fi
  echo "case=$case $(grep -m1 '^device=' <<< "$out") $(grep '^traceback_ms=' <<< "$out") $(tail -n1 <<< "$out")" |
    tee -a "$txt"
}
case=size
want size && for size in $sizes; do
  n=${size%,*} m=${size#*,}
  reps=3
  ((n >= 1000000)) && reps=1
  run "$n" "$m" --algorithm pipeline --repeat "$reps"
  for s in $strategies; do run "$n" "$m" --algorithm barrier --barrier "$s" --repeat "$reps"; done
done
# Shapes at 200k x 180k: rows per work-item and chunk width of the pipeline, tile width of the
# barrier kernel (auto strategy).
case=shape
if want shape; then
  for cells in 8 16 32; do
    for w in 32 64 128; do
      run 200000 180000 --algorithm pipeline --cells "$cells" --tile-cols "$w" --repeat 3
    done
  done
  for w in 512 1024 2048 4096; do run 200000 180000 --algorithm barrier --tile-cols "$w" --repeat 3; done
  run 200000 180000 --algorithm pipeline --local-size 256 --cells 8 --tile-cols 128 --repeat 3
fi
# Traceback of the long pair (start by the bounded reverse pass, CIGAR by the banded pass).
case=traceback
want traceback && run 1000000 1000000 --algorithm pipeline --traceback --view-limit 0
# Host: CPU reference and libssw (16-bit scores: fine on these slices).
case=host
if want host; then
  run 20000 20000 --algorithm cpu
  run 50000 50000 --algorithm ssw --threads 1
  run 200000 180000 --algorithm ssw --threads 16
fi
# Case rule: the pipeline's rule as it runs (no shape given: below 500k
# rows the earlier pipeline's shape 256 x 8 x 128 in 32 bits, from 500k rows 128 x 8 x 64 in 16 bits)
# on 200k x 180k and 1M x 1M, then the 200k pair's shapes in both widths (case rule-shape).
if want rule; then
  case=rule
  run 200000 180000 --algorithm pipeline --repeat 3
  run 1000000 1000000 --algorithm pipeline --repeat 2
  case=rule-shape
  for bits in 32 16; do
    for shape in "256 8 128" "128 8 64" "64 8 64" "128 8 128" "128 16 64"; do
      read -r t r w <<< "$shape"
      run 200000 180000 --algorithm pipeline --score-bits "$bits" --local-size "$t" --cells "$r" \
        --tile-cols "$w" --repeat 3
    done
  done
fi
# The new pipeline against the old binary (OLD) and its own portable path (LOCKSTEP_DPX=0), in
# 16-bit lanes (the default where the pair's scores fit: saturation reruns in 32 bits) and in
# 32 bits, then its shapes at 1M x 1M in both; with ptxas and cuobjdump on the PATH, the SASS
# instruction census of the pipeline kernels this run built ($OUT/align_sass.txt).
if want dpx; then
  for size in 200000,180000 1000000,1000000; do
    n=${size%,*} m=${size#*,}
    reps=3
    ((n >= 1000000)) && reps=2
    if [[ -n "${OLD:-}" ]]; then
      case=dpx-old bin=$OLD
      run "$n" "$m" --algorithm pipeline --repeat "$reps"
    fi
    bin=$LOCKSTEP
    for bits in 16 32; do
      case=dpx-new
      run "$n" "$m" --algorithm pipeline --score-bits "$bits" --repeat "$reps"
      case=dpx-portable
      LOCKSTEP_DPX=0 run "$n" "$m" --algorithm pipeline --score-bits "$bits" --repeat "$reps"
    done
  done
  case=dpx-shape bin=$LOCKSTEP
  for bits in 16 32; do
    for shape in "128 16 64" "64 16 64" "64 16 32" "128 8 64" "256 8 64" "64 32 64" "64 8 64"; do
      read -r t r w <<< "$shape"
      run 1000000 1000000 --algorithm pipeline --score-bits "$bits" --local-size "$t" \
        --cells "$r" --tile-cols "$w" --repeat 1
    done
  done
  cache=${XDG_CACHE_HOME:-$HOME/.cache}/lockstep/programs
  if command -v ptxas > /dev/null && command -v cuobjdump > /dev/null && [[ -d "$cache" ]]; then
    sass=$(mktemp -d)
    for f in "$cache"/*.bin; do
      grep -aq '\.entry sw_pipeline' "$f" || continue
      tr -d '\000' < "$f" | awk '/^\.version/{p=1} p' > "$sass/k.ptx"
      opts=$(tr -d '\000' < "$f" | grep -aoE -- '-D (DPX_NV|LOCAL_SIZE|SW_R|SW_W|SW_PROF_CHAR)=[0-9]+' |
        sort -u | tr '\n' ' ')
      ptxas -arch=sm_90 -v "$sass/k.ptx" -o "$sass/k.cubin" 2> "$sass/v.txt" || continue
      {
        echo "== $(basename "$f") $opts"
        grep -o 'Used [0-9]* registers.*' "$sass/v.txt" | head -2
        cuobjdump -sass "$sass/k.cubin" | grep -oE '^ +/\*[0-9a-f]+\*/ +[A-Z][A-Z0-9._]*' |
          awk '{print $2}' | sort | uniq -c | sort -rn | head -25
      } >> "$OUT/align_sass.txt"
    done
    rm -rf "$sass"
  fi
fi
py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3  # Debian matplotlib
"$py" "$here/plot_align.py" "$txt" "$OUT/align.png" 2>> "$OUT/align.err" | tee -a "$txt" ||
  echo "plot skipped (see $OUT/align.err)"
exit 0
