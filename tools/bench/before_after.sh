#!/usr/bin/env bash
# Issue 19's "behaviour unchanged" check: the same work through two lockstep binaries (OLD, the
# release before the redesign; NEW, this tree), alternating OLD, NEW three times in one run, on
# the paths the redesign touched but did not mean to speed up: SpMV (vector and adaptive), the
# persistent bitonic sort (lock barrier), BFS's persistent multi-group and wave kernels, both
# Smith-Waterman kernels, and Floyd-Warshall at the old rule's configuration (tile 32, K 4,
# thread tile 4). Old option spellings are used: NEW accepts them (deprecated). Writes
# $OUT/before_after.txt: every run's last line, then `ratio case= old_ms= new_ms= new_over_old=`
# (medians of the three).
# Use: OLD=path/to/old/lockstep NEW=build/lockstep OUT=/tmp/out [GENOMES=dir] [ONLY=regex]
#      tools/bench/before_after.sh        (ONLY: run the cases whose name matches)
set -uo pipefail
: "${OLD:?set OLD}" "${NEW:?set NEW}" "${OUT:?set OUT}"
mkdir -p "$OUT"
txt="$OUT/before_after.txt"
: > "$txt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$NEW" gen laplace2d 2048 -o "$tmp/lap.mtx" > /dev/null
"$NEW" gen rmat 20 16 -o "$tmp/rmat.mtx" --seed 7 > /dev/null
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
genomes=${GENOMES:-}
for g in "$here/../../../shared/genomes" "$here/../../.carry/genomes"; do
  [[ -z "$genomes" && -f "$g/MG1655-K12.fasta.gz" ]] && genomes=$g
done
source "$here/kv.sh"
declare -A times
run() {  # run CASE KEY ARGS...: three alternating pairs
  local c=$1 k=$2
  shift 2
  [[ -n "${ONLY:-}" && ! "$c" =~ $ONLY ]] && return 0
  for i in 1 2 3; do
    for side in old new; do
      local bin=$OLD
      [[ $side == new ]] && bin=$NEW
      local line
      line=$("$bin" "$@" 2> /dev/null | tail -1)
      echo "case=$c side=$side $line" >> "$txt"
      times[$c,$side]+="$(kv "$k" <<< "$line") "
    done
  done
  local o n
  o=$(tr ' ' '\n' <<< "${times[$c,old]}" | grep . | sort -g | sed -n 2p)
  n=$(tr ' ' '\n' <<< "${times[$c,new]}" | grep . | sort -g | sed -n 2p)
  awk -v c="$c" -v o="$o" -v n="$n" 'BEGIN { printf "ratio case=%s old_ms=%s new_ms=%s new_over_old=%.3f\n", c, o, n, (o > 0 ? n / o : 0) }' | tee -a "$txt"
}
for m in lap rmat; do
  for k in vector adaptive; do run "spmv_${m}_$k" median_ms spmv "$tmp/$m.mtx" --kernel "$k" --repeat 50; done
done
for n in 65536 16777216; do run "bitonic_lock_$n" ms sort --n "$n" --algorithm bitonic --strategy lock --repeat 10; done
for s in multi wave; do run "bfs_grid_$s" ms bfs --grid 1024 --strategy "$s" --repeat 3; done
run bfs_rmat_multi ms bfs --rmat 20 --strategy multi --repeat 3
if [[ -n "$genomes" ]]; then
  for a in pipeline barrier; do
    run "align_$a" ms align "$genomes/MG1655-K12.fasta.gz" "$genomes/O395.fasta.gz" \
      --slice-a 0,50000 --slice-b 0,50000 --algorithm "$a"
  done
fi
run apsp_old_rule ms apsp --random 4096,0.05,1 --variant generalized --tile 32 --K 4 --thread-tile 4 --repeat 3
exit 0
