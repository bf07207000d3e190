#!/usr/bin/env bash
# Every capability's headline row beside its anchor, in one run on one GPU: the table that each
# change is checked against. Each row runs lockstep and its anchor one after the other in the
# same process tree, so only same-run ratios are printed (anchor time / lockstep time; below 1
# means lockstep is slower). Rows:
#   sort     u32 keys and u32 pairs at 2^24 and 2^26, u64 keys at 2^24   vs CUB (cuda_anchors)
#   spmv     fp64, untuned rule (empty tuning database): power-law 1M, R-MAT 21, Laplace 4096
#            vs cuSPARSE ALG1/ALG2 (cuda_anchors spmv)
#   spmm     float, R-MAT 21, k = 4..32, row- and column-major X       vs cuSPARSE (cusparse_spmm)
#   barrier  the default barrier at 132, 264 x 1024 and full residency vs grid.sync()
#   apsp     Floyd-Warshall n = 8192, f32 and i32                   vs the goal (45 ms)
#   bfs      auto beside every forced algorithm on the real graphs  vs the best forced algorithm
#   align    DNA 200k x 180k and a protein pair, one launch          vs the previous numbers
# Needs LOCKSTEP (the binary), OUT, and ANCHORS (a folder with cuda_anchors and cusparse_spmm, built
# by tools/gpu/run.sh with nvcc; cusparse_spmm is built here when nvcc is present); rows whose anchor is missing print lockstep alone.
# Writes $OUT/anchors.txt: the raw key=value lines of every command, and at the end the table
# (`# |...` lines, the form BENCHMARKS.md carries). ROWS="sort spmv ..." picks rows.
# Use: LOCKSTEP=build/lockstep OUT=/tmp/out ANCHORS=/tmp/anchors tools/bench/anchors.sh
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP to the lockstep binary}" "${OUT:?set OUT to the output folder}"
here=$(cd "$(dirname "$0")" && pwd)
rows=${ROWS:-sort spmv spmm barrier apsp bfs align}
dir=${MATRIX_DIR:-/tmp/lockstep-bench}
graphs=${GRAPH_DIR:-$here/../../../shared/graphs}
mkdir -p "$OUT" "$dir"
txt="$OUT/anchors.txt"
err="$OUT/anchors.err"
: > "$txt"
want() { [[ " $rows " == *" $1 "* ]]; }
# row NAME CMD...: one command's output lines, each prefixed with row=NAME, into $txt
row() {
  local name=$1
  shift
  echo "# row=$name $*" >> "$txt"
  timeout "${ROW_TIMEOUT:-120}" "$@" 2>> "$err" | sed -u "s/^/row=$name /" | tee -a "$txt"
}
anchor() { [[ -n "${ANCHORS:-}" && -x "$ANCHORS/$1" ]]; }
# cuSPARSE's SpMM anchor is built here when nvcc is on the PATH (tools/gpu/run.sh builds cuda_anchors)
if [[ -n "${ANCHORS:-}" && ! -x "$ANCHORS/cusparse_spmm" ]] && command -v nvcc > /dev/null; then
  nvcc -O3 -std=c++17 -arch=sm_90 "$here/cusparse_spmm.cu" -lcusparse -o "$ANCHORS/cusparse_spmm" \
    2>> "$err" || echo "anchors.sh: cusparse_spmm not built (see $err)" >&2
fi
start=$SECONDS

if want sort; then
  for k in 24 26; do
    n=$((1 << k))
    row "sort_keys_$k" "$LOCKSTEP" sort --n "$n" --repeat 10
    row "sort_pairs_$k" "$LOCKSTEP" sort --n "$n" --pairs --repeat 10
  done
  row sort_u64_24 "$LOCKSTEP" sort --n $((1 << 24)) --type u64 --repeat 10
  anchor cuda_anchors && row sort_anchor "$ANCHORS/cuda_anchors" sort 24 26
fi

if want spmv; then
  declare -A spec=([powerlaw_1m]="powerlaw 1048576 1.8 --seed 1" [rmat_21_16]="rmat 21 16 --seed 7"
                   [laplace2d_4096]="laplace2d 4096")
  empty_db="$dir/empty-tuning-db.json"
  rm -f "$empty_db"
  for n in powerlaw_1m rmat_21_16 laplace2d_4096; do
    [[ -f "$dir/$n.mtx" ]] || "$LOCKSTEP" gen ${spec[$n]} -o "$dir/$n.mtx" > /dev/null 2>> "$err"
    LOCKSTEP_TUNING_DB="$empty_db" row "spmv_$n" "$LOCKSTEP" spmv "$dir/$n.mtx" --algorithm auto
    anchor cuda_anchors && row "spmv_${n}_anchor" "$ANCHORS/cuda_anchors" spmv "$dir/$n.mtx"
  done
fi

if want spmm; then
  f="$dir/rmat_21_16.mtx"
  [[ -f "$f" ]] || "$LOCKSTEP" gen rmat 21 16 --seed 7 -o "$f" > /dev/null 2>> "$err"
  for layout in row col; do
    row "spmm_$layout" "$LOCKSTEP" spmm "$f" --k 4,8,16,32 --layout "$layout" --precision float \
      --repeat 5
  done
  anchor cusparse_spmm && row spmm_anchor "$ANCHORS/cusparse_spmm" "$f" float 4,8,16,32 both
fi

if want barrier; then
  anchor cuda_anchors && row barrier_anchor "$ANCHORS/cuda_anchors" barrier
  row barrier_256 "$LOCKSTEP" bench barrier --groups 132,max --local-size 256 --no-data \
    --rounds 20000
  row barrier_1024 "$LOCKSTEP" bench barrier --groups 264 --local-size 1024 --no-data \
    --rounds 20000
fi

if want apsp; then
  for t in f32 i32; do
    row "apsp_$t" "$LOCKSTEP" apsp --random 8192,0.01,1 --type "$t" --repeat 3
  done
fi

if want bfs; then
  for g in "$graphs"/*.gz; do
    [[ -f "$g" ]] || continue
    row "bfs_$(basename "$g" | cut -d. -f1)" "$LOCKSTEP" bfs "$g" --sources 16 --repeat 5 \
      --warmup 3 --algorithm auto,single,multi,queue,lb,bottom-up
  done
  [[ -n "${BFS_RMAT:-22}" ]] && row "bfs_rmat${BFS_RMAT:-22}" "$LOCKSTEP" bfs --rmat "${BFS_RMAT:-22}" --edge-factor 16 --sources 16 --repeat 3 \
    --algorithm auto,single,multi,queue,lb,bottom-up
fi

if want align; then
  a=$(ls "$here"/../../../shared/genomes/*.fasta.gz 2>/dev/null | head -1)
  b=$(ls "$here"/../../../shared/genomes/*.fasta.gz 2>/dev/null | tail -1)
  if [[ -n "$a" ]]; then
    row align_dna_200k "$LOCKSTEP" align "$a" "$b" --slice-a 0,200000 --slice-b 0,180000 --repeat 3
  fi
  db=${PROTEIN_DB:-$(ls /usr/share/doc/mmseqs2/example-data/DB.fasta.gz "$here"/../../.carry/mmseqs2/DB.fasta.gz 2>/dev/null | head -1)}
  if [[ -n "$db" ]]; then  # the first protein of >= 3412 residues, against itself
    zcat "$db" | awk -v RS='>' 'NR > 1 { n = split($0, l, "\n"); s = ""; for (i = 2; i <= n; ++i) s = s l[i]
      if (length(s) >= 3412) { print ">" l[1]; print substr(s, 1, 3412); exit } }' > "$dir/protein3412.fa"
    row align_protein "$LOCKSTEP" align "$dir/protein3412.fa" "$dir/protein3412.fa" --matrix blosum62 \
      --gap-open 11 --gap-extend 1 --repeat 3
  fi
fi

echo "# seconds=$((SECONDS - start))" | tee -a "$txt"
py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
"$py" "$here/anchors_table.py" "$txt" | sed 's/^/# /' | tee -a "$txt"
