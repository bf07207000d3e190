#!/usr/bin/env bash
# Before/after on one device, one command: the same work through two lockstep binaries (OLD, an
# older commit built by tools/bench/build_old.sh; NEW, this tree) over every kernel family of the
# anchors table (tools/bench/anchors.sh: sort, SpMV, SpMM, barrier, APSP, BFS, alignment) and
# database search. OLD and NEW alternate three times a case (PAIRS=N: N times), in ABBA order, so
# that clock and thermal drift fall on both sides; a side's time is the median of its runs, each
# run's time the sum of KEY over its output lines (device time as the command reports it, not
# process start-up). A case is slower when new/old > 1.03. Only spellings that both binaries
# accept are used (the vocabulary --algorithm/--barrier/--local-size predates the baseline
# ad3dd0d), with the defaults of each (an empty tuning database, so both run their untuned rule).
# Writes $OUT/before_after.txt: every run's lines (case= side=), a `ratio case= old= new=
# new_over_old=` line a case, and last `slower_than_3pct=CASE,...` (or `none`); prints the
# ratios. On an H200 the 20 cases outside SpMV and SpMM took 152 s; the 5 SpMV and SpMM cases,
# which generate their matrices and read 0.7-2 GB of Matrix Market text a run, about 12 minutes:
# more than one call of the device tool holds, so split the run with ONLY. SMALL=1: tiny sizes,
# to check the script itself (PoCL). Rows whose data is missing (genomes, graphs, the mmseqs2
# example) are left out and said so.
# Use: OLD=.carry/lockstep-ad3dd0d NEW=build/lockstep OUT=/tmp/out [ONLY=regex] [SMALL=1]
#      tools/bench/before_after.sh       (OLD first: tools/bench/build_old.sh ad3dd0d
#                                         lockstep-ad3dd0d; ONLY: the cases whose name matches)
# On the GPU machine, after tools/gpu/prepare.sh and build_old.sh here (NEW: run.sh's LOCKSTEP),
# one call for each ONLY of '^(sort|barrier|apsp|bfs|align|search)', '^spmv' and '^spmm':
#      OLD=.carry/lockstep-ad3dd0d TESTS=0 ONLY=... BENCH=tools/bench/before_after.sh \
#        BENCH_TIMEOUT=540 bash tools/gpu/run.sh
set -uo pipefail
NEW=${NEW:-${LOCKSTEP:-}}
: "${OLD:?set OLD}" "${NEW:?set NEW (or LOCKSTEP)}" "${OUT:?set OUT}"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root="$here/../.."
mkdir -p "$OUT"
txt="$OUT/before_after.txt"
: > "$txt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LOCKSTEP_TUNING_DB="$tmp/empty-tuning-db.json"
source "$here/kv.sh"
start=$SECONDS
small=${SMALL:-}
pick() {  # pick BIG SMALL
  if [[ -n "$small" ]]; then echo "$2"; else echo "$1"; fi
}
first() { for f in "$@"; do [[ -f "$f" ]] && echo "$f" && return; done; }
want() { [[ -z "${ONLY:-}" || "$1" =~ $ONLY ]]; }  # a case ONLY selects
slower=()

# run CASE KEY ARGS...: three alternating pairs, then the ratio of the medians
run() {
  local c=$1 k=$2
  shift 2
  want "$c" || return 0
  local old_t="" new_t="" pairs=${PAIRS:-3} sides
  for ((i = 1; i <= pairs; ++i)); do
    sides="old new"
    ((i % 2)) || sides="new old"  # ABBA: neither side always runs first
    for side in $sides; do
      local bin=$OLD
      [[ $side == new ]] && bin=$NEW
      local lines t
      lines=$(timeout "${CASE_TIMEOUT:-120}" "$bin" "$@" 2>> "$OUT/before_after.err")
      sed "s/^/case=$c side=$side /" <<< "$lines" >> "$txt"
      t=$(kv "$k" <<< "$lines" | awk '{ s += $1; n++ } END { if (n) printf "%.6g", s }')
      [[ $side == old ]] && old_t+="$t " || new_t+="$t "
    done
  done
  local o n
  local mid=$(((pairs + 1) / 2))  # the median (of an even count, the lower middle)
  o=$(tr ' ' '\n' <<< "$old_t" | grep . | sort -g | sed -n ${mid}p)
  n=$(tr ' ' '\n' <<< "$new_t" | grep . | sort -g | sed -n ${mid}p)
  if [[ -z "$o" || -z "$n" ]]; then
    echo "ratio case=$c key=$k failed=1 (see $OUT/before_after.err)" | tee -a "$txt"
    slower+=("$c(failed)")
    return 0
  fi
  local r
  r=$(awk -v o="$o" -v n="$n" 'BEGIN { printf "%.3f", (o > 0 ? n / o : 0) }')
  echo "ratio case=$c key=$k old=$o new=$n new_over_old=$r" | tee -a "$txt"
  awk -v r="$r" 'BEGIN { exit !(r > 1.03) }' && slower+=("$c")
}
skip() { echo "skipped case=$1 reason=$2" | tee -a "$txt"; }

# sort: u32 keys and pairs, u64 keys (anchors: 2^24 and 2^26)
n=$(pick $((1 << 26)) 4096)
run sort_keys ms sort --n "$n" --repeat 10
run sort_pairs ms sort --n "$n" --pairs --repeat 10
run sort_u64 ms sort --n "$(pick $((1 << 24)) 4096)" --type u64 --repeat 10

# SpMV, fp64, the untuned rule; SpMM, float, k = 4..32, both layouts
dir=${MATRIX_DIR:-/tmp/lockstep-bench}
[[ -n "$small" ]] && dir="$tmp"
mkdir -p "$dir"
declare -A spec=([powerlaw_1m]="$(pick "powerlaw 1048576 1.8" "powerlaw 2048 1.8") --seed 1"
                 [rmat_21_16]="$(pick "rmat 21 16" "rmat 10 8") --seed 7"
                 [laplace2d_4096]="laplace2d $(pick 4096 32)")
for m in powerlaw_1m rmat_21_16 laplace2d_4096; do
  f="$dir/$m$small.mtx"
  want "spmv_$m" || { [[ $m == rmat_21_16 ]] && { want spmm_row || want spmm_col; }; } ||
    continue
  [[ -f "$f" ]] || "$NEW" gen ${spec[$m]} -o "$f" > /dev/null
  run "spmv_$m" median_ms spmv "$f" --algorithm auto --repeat "$(pick 50 3)"
done
for layout in row col; do
  run "spmm_$layout" median_ms spmm "$dir/rmat_21_16$small.mtx" --k 4,8,16,32 --layout "$layout" \
    --precision float --repeat "$(pick 5 2)"
done

# every barrier at 132 x 256 (one group a compute unit on an H200), and the default's at full
# residency (grouped-lock) and at 264 x 1024 (lock)
# (relaunch is bound by the host's launch rate, which jumps between ~12 and ~15 us from run to run
# on the H200's host whichever the binary: 8 pairs)
for b in relaunch lock grouped-lock lock-free tree; do
  pairs=3
  [[ $b == relaunch ]] && pairs=8
  PAIRS=$pairs run "barrier_${b}_132x256" us_per_barrier bench barrier --barrier "$b" --groups "$(pick 132 2)" \
    --local-size 256 --no-data --rounds "$(pick 20000 100)"
done
run barrier_grouped-lock_maxx256 us_per_barrier bench barrier --barrier grouped-lock \
  --groups "$(pick max 2)" --local-size 256 --no-data --rounds "$(pick 20000 100)"
run barrier_lock_264x1024 us_per_barrier bench barrier --barrier lock --groups "$(pick 264 2)" \
  --local-size "$(pick 1024 64)" --no-data --rounds "$(pick 20000 100)"

# Floyd-Warshall, f32 and i32
for t in f32 i32; do
  run "apsp_$t" ms apsp --random "$(pick 8192,0.01,1 64,0.1,1)" --type "$t" --repeat 3
done

# BFS, automatic: R-MAT and the real graphs
run bfs_rmat ms bfs --rmat "$(pick 22 10)" --edge-factor 16 --sources "$(pick 16 2)" --repeat 3 \
  --algorithm auto
graphs=${GRAPH_DIR:-}
for d in "$root/shared/graphs" "$root/../shared/graphs" "$root/.carry/graphs"; do
  [[ -z "$graphs" && -d "$d" ]] && graphs=$d
done
if [[ -z "$small" ]]; then
  for g in "$graphs"/*.gz; do
    [[ -f "$g" ]] || { skip bfs_graphs "no graphs in $graphs"; break; }
    run "bfs_$(basename "$g" | cut -d. -f1)" ms bfs "$g" --sources 16 --repeat 5 --warmup 3 \
      --algorithm auto
  done
fi

# alignment: a DNA pair and a protein against itself
genomes=${GENOMES:-}
a=$(first "$genomes/MG1655-K12.fasta.gz" "$root"/{shared,../shared,.carry}/genomes/MG1655-K12.fasta.gz)
b=$(first "$genomes/O395.fasta.gz" "$root"/{shared,../shared,.carry}/genomes/O395.fasta.gz)
if [[ -n "$a" && -n "$b" ]]; then
  run align_dna ms align "$a" "$b" --slice-a "0,$(pick 200000 3000)" \
    --slice-b "0,$(pick 180000 2000)" --repeat 3
else
  skip align_dna "no genomes (GENOMES=dir with MG1655-K12.fasta.gz and O395.fasta.gz)"
fi
data=${SEARCH_DATA:-$(dirname "$(first /usr/share/doc/mmseqs2/example-data/DB.fasta.gz \
  "$root/.carry/mmseqs2/DB.fasta.gz")")}
if [[ -f "$data/DB.fasta.gz" && -f "$data/QUERY.fasta.gz" ]]; then
  # the first protein of >= 3412 residues (SMALL: 300), against itself
  zcat "$data/DB.fasta.gz" | awk -v RS='>' -v n="$(pick 3412 300)" 'NR > 1 {
    k = split($0, l, "\n"); s = ""; for (i = 2; i <= k; ++i) s = s l[i]
    if (length(s) >= n) { print ">" l[1]; print substr(s, 1, n); exit } }' > "$tmp/protein.fa"
  run align_protein ms align "$tmp/protein.fa" "$tmp/protein.fa" --matrix blosum62 \
    --gap-open 11 --gap-extend 1 --repeat 3
  # database search: the mmseqs2 example (SMALL: 2 queries, 300 subjects), the default algorithm
  if [[ -n "$small" ]]; then
    zcat "$data/QUERY.fasta.gz" | awk '/^>/ { ++n } n <= 2' > "$tmp/q.fa"
    zcat "$data/DB.fasta.gz" | awk '/^>/ { ++n } n <= 300' > "$tmp/db.fa"
    run search ms search "$tmp/q.fa" "$tmp/db.fa" --out "$tmp/hits.tsv"
  else
    run search ms search "$data/QUERY.fasta.gz" "$data/DB.fasta.gz" --out "$tmp/hits.tsv"
  fi
else
  skip align_protein "no mmseqs2 example (apt-get install mmseqs2-examples, or SEARCH_DATA=dir)"
  skip search "no mmseqs2 example"
fi

echo "seconds=$((SECONDS - start))" | tee -a "$txt"
list=$(IFS=,; echo "${slower[*]:-}")
echo "slower_than_3pct=${list:-none}" | tee -a "$txt"
exit 0
