#!/usr/bin/env bash
# Database search benchmark, one command, every anchor in the same run:
#  example: the mmseqs2 example DB (20,000 UniProt proteins, 9.06 M residues) x its 500 queries,
#    top 10, BLOSUM62 11/1 (lockstep --gap-open 11 --gap-extend 1, no E-value cutoff; CUDASW++ --gop -11
#    --gex -1): lockstep search (run twice: cold = kernel builds included, warm =
#    the headline), timed end to end (the process's wall time, reading the gzip FASTA included)
#    and on the device only (its ms=); CUDASW++4.0 (--dpx, built here from .carry/cudasw4 with
#    nvcc; its makedb preprocessing timed apart); parasail (sw_striped_profile_sat, exact) on
#    $THREADS processes for the first $PARASAIL_QUERIES queries, whose top-10 scores must equal
#    lockstep's (agree=1).
#  outfmt 6 and prepared databases: the example DB again with --outfmt 6 (BLAST's tabular
#    columns, a traceback per hit: its traceback_ms=, and outfmt6_over_scores= its wall time over
#    the scores-only run's); `lockstep makedb` of the example DB and of the large one (timed), then
#    both searched from the prepared database (read_ms= is its open; same_hits= against the FASTA
#    run, byte for byte), scores only and with --outfmt 6.
#  large: `lockstep gen proteins` grows the example DB to $LARGE_RESIDUES residues (mutated
#    copies, seed 1), searched with the first $LARGE_QUERIES queries by lockstep (cold, then the
#    headline) and CUDASW++.
# Writes $OUT/search.txt (one line per run: case= tool= wall_s= tcups= [device_tcups=] and the
# tool's own figures) and, with matplotlib, $OUT/search.png; prints the same lines. Without nvcc
# (or without .carry/cudasw4: tools/gpu/prepare_search.sh) CUDASW++ is skipped and says so.
# Use: LOCKSTEP=build/lockstep OUT=/tmp/out [DB=.. QUERIES=..] [LARGE_RESIDUES=5e8]
#      [LARGE_QUERIES=50] [PARASAIL_QUERIES=100] [THREADS=16] [STEP_TIMEOUT=150]
#      [SWEEP="128:32 256:32:skew 128:64:prof2+skew"] (kernel shapes local_size:stripe[:features],
#      each on the large case and on the example DB, --algorithm inter+FEATURES; features:
#      plain, prof2, skew, prof2+skew)
#      [VARIANTS="NAME=BINARY ..."] (other builds, tools/bench/build_old.sh COMMIT NAME: each runs
#      right after this one on every lockstep case, cold runs included, as case=CASE@NAME, its
#      hits compared with this build's default run, same_hits=)
#      tools/bench/search.sh           (on the GPU machine: well inside 6 minutes)
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP to the lockstep binary}" "${OUT:?set OUT to the output folder}"
here=$(cd "$(dirname "$0")" && pwd)
carry="$here/../../.carry"
data=${SEARCH_DATA:-}
for d in /usr/share/doc/mmseqs2/example-data "$carry/mmseqs2"; do
  [[ -z "$data" && -f "$d/DB.fasta.gz" ]] && data=$d
done
DB=${DB:-$data/DB.fasta.gz}
QUERIES=${QUERIES:-$data/QUERY.fasta.gz}
if [[ ! -f "$DB" || ! -f "$QUERIES" ]]; then
  echo "search.sh: no database (apt-get install mmseqs2-examples, or set DB and QUERIES)" >&2
  exit 1
fi
TOP=${TOP:-10} THREADS=${THREADS:-16} PARASAIL_QUERIES=${PARASAIL_QUERIES:-100}
LARGE_RESIDUES=${LARGE_RESIDUES:-5e8} LARGE_QUERIES=${LARGE_QUERIES:-50}
tmp=${SEARCH_TMP:-/tmp/lockstep-search}
rm -rf "$tmp" && mkdir -p "$tmp" "$OUT"
txt="$OUT/search.txt"
: > "$txt"
: > "$OUT/search.err"
# Python: one that has parasail (Debian's python3-parasail here), else one with numpy that takes
# the carried wheel (the GPU machine); the plot: one with matplotlib.
pick() { for p in /usr/bin/python3 python3; do "$p" -c "import $1" 2>/dev/null && echo "$p" && return; done; }
py=$(pick parasail)
if [[ -z "$py" ]] && py=$(pick numpy) && [[ -n "$py" ]] && ls "$carry"/wheels/parasail-*.whl >/dev/null 2>&1; then
  "$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site "$carry"/wheels/*.whl && export PYTHONPATH=/tmp/site
fi
py=${py:-python3}
plot_py=$(pick matplotlib)
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
source "$here/kv.sh"
# CUDASW++4.0, built in the background (14 of 16 cores) while lockstep runs
build_pid=""
cudasw="$tmp/cudasw4"
if command -v nvcc >/dev/null && [[ -f "$carry/cudasw4/Makefile" ]]; then
  (cp -r "$carry/cudasw4" "$cudasw" && cd "$cudasw" &&
     sed -i 's/-arch=native/-arch=sm_90/; s/ -lnvToolsExt//; s/^COMPILE = $(COMPILER)/COMPILE = $(COMPILER) -x cu/' Makefile &&
     make -j14 align makedb) > "$OUT/cudasw-build.log" 2>&1 &
  build_pid=$!
else
  echo "tool=cudasw4 skipped=1 reason=no_nvcc_or_no_.carry/cudasw4" | tee -a "$txt"
fi

declare -A wall_of  # CASE -> wall_s of lockstep_run
# makedb_run CASE FASTA LSDB: `lockstep makedb`, timed
makedb_run() {
  local t0 out rc
  t0=$(now)
  out=$(timeout "${STEP_TIMEOUT:-150}" "$LOCKSTEP" makedb "$2" "$3" 2>> "$OUT/search.err")
  rc=$?
  if [[ $rc -ne 0 ]]; then echo "case=$1 tool=makedb error=1 rc=$rc" | tee -a "$txt"; return; fi
  echo "case=$1 tool=makedb wall_s=$(since "$t0") bytes=$(stat -c %s "$3") $out" | tee -a "$txt"
}
# lockstep_run CASE QUERIES DB [ARGS]: one search (by $BIN, default $LOCKSTEP), its summary line
# with the wall time
lockstep_run() {
  local case=$1 q=$2 db=$3 t0 out rc
  shift 3
  t0=$(now)
  out=$(timeout "${STEP_TIMEOUT:-150}" "${BIN:-$LOCKSTEP}" search "$q" "$db" --top "$TOP" \
          --gap-open 11 --gap-extend 1 --evalue 1e300 --out "$tmp/$case-lockstep.tsv" "$@" 2>> "$OUT/search.err")
  rc=$?
  local wall; wall=$(since "$t0")
  if [[ $rc -ne 0 ]]; then echo "case=$case tool=lockstep error=1 rc=$rc" | tee -a "$txt"; return; fi
  local line; line=$(tail -n1 <<< "$out")
  local cells; cells=$(kv cells <<< "$line")
  local same="" base=${SAME_AS:-${case%%[-@]*}}  # a sweep's or variant's run (CASE-L:S:V,
  # CASE@NAME), or one given SAME_AS=CASE: its hits against that run's, byte for byte
  if [[ ( $case == *[:@]* || -n "${SAME_AS:-}" ) && -f "$tmp/$base-lockstep.tsv" ]]; then
    cmp -s "$tmp/$base-lockstep.tsv" "$tmp/$case-lockstep.tsv" && same="same_hits=1 " || same="same_hits=0 "
  fi
  wall_of[$case]=$wall
  local ratio=""  # a --outfmt 6 run (CASE-outfmt6): its wall time over the scores-only run's
  [[ $case == *-outfmt6 && -n "${wall_of[${case%-outfmt6}]:-}" ]] &&
    ratio="outfmt6_over_scores=$(awk -v a="$wall" -v b="${wall_of[${case%-outfmt6}]}" 'BEGIN { printf "%.3f", a / b }') "
  echo "case=$case tool=lockstep ${same}${ratio}wall_s=$wall $(awk -v c="$cells" -v w="$wall" -v ms="$(kv ms <<< "$line")" \
    -v k="$(kv kernel_ms <<< "$line")" 'BEGIN { printf "tcups=%.4f device_tcups=%.4f kernel_tcups=%.4f",
      c / w / 1e12, (ms > 0 ? c / (ms * 1e9) : 0), (k > 0 ? c / (k * 1e9) : 0) }') $line" |
    tee -a "$txt"
}
# cudasw_run CASE QUERIES DB: makedb (timed apart), then the search with --dpx
cudasw_run() {
  local case=$1 q=$2 db=$3 t0 out rc
  [[ -x "$cudasw/align" ]] || return
  t0=$(now)
  mkdir -p "$tmp/cudasw-db-$case"  # makedb writes into an existing folder only
  timeout "${STEP_TIMEOUT:-150}" "$cudasw/makedb" "$db" "$tmp/cudasw-db-$case/db" >> "$OUT/cudasw.log" 2>&1
  local makedb_s; makedb_s=$(since "$t0")
  t0=$(now)
  out=$(timeout "${STEP_TIMEOUT:-150}" "$cudasw/align" --query "$q" --db "$tmp/cudasw-db-$case/db" \
          --top "$TOP" --gop -11 --gex -1 --verbose --dpx --tsv --of "$tmp/$case-cudasw.tsv" 2>> "$OUT/cudasw.log")
  rc=$?
  local wall; wall=$(since "$t0")
  echo "$out" >> "$OUT/cudasw.log"
  if [[ $rc -ne 0 ]]; then echo "case=$case tool=cudasw4 error=1 rc=$rc" | tee -a "$txt"; return; fi
  local total; total=$(grep -m1 '^Total time:' <<< "$out")  # "Total time: S s, G GCUPS"
  local s g; s=$(awk '{print $3}' <<< "$total"); g=$(awk '{print $5}' <<< "$total")
  echo "case=$case tool=cudasw4 wall_s=$wall makedb_s=$makedb_s seconds=$s $(awk -v g="$g" -v s="$s" \
    -v w="$wall" 'BEGIN { printf "device_tcups=%.4f tcups=%.4f", g / 1000, g * s / w / 1000 }')" |
    tee -a "$txt"
}

# variants_run CASE QUERIES DB [ARGS]: lockstep_run by each of VARIANTS, as CASE@NAME
variants_run() {
  local case=$1 v
  shift
  for v in ${VARIANTS:-}; do BIN=${v#*=} lockstep_run "$case@${v%%=*}" "$@"; done
}
"$LOCKSTEP" devices > "$OUT/search-devices.txt" 2>&1
lockstep_run example-cold "$QUERIES" "$DB"
for v in ${VARIANTS:-}; do BIN=${v#*=} lockstep_run "example-cold@${v%%=*}" "$QUERIES" "$DB"; done
lockstep_run example "$QUERIES" "$DB" --json "$OUT/search-example.json"
variants_run example "$QUERIES" "$DB"
lockstep_run example-outfmt6 "$QUERIES" "$DB" --outfmt 6
makedb_run example "$DB" "$tmp/example.lsdb"
SAME_AS=example lockstep_run example-lsdb "$QUERIES" "$tmp/example.lsdb"
SAME_AS=example-outfmt6 lockstep_run example-lsdb-outfmt6 "$QUERIES" "$tmp/example.lsdb" --outfmt 6
t0=$(now)
gen=$(timeout "${STEP_TIMEOUT:-150}" "$LOCKSTEP" gen proteins "$DB" -o "$tmp/large.fa" \
        --residues "$LARGE_RESIDUES" --seed 1 2>> "$OUT/search.err")
echo "case=large tool=gen wall_s=$(since "$t0") $gen" | tee -a "$txt"
gzip -cdf "$QUERIES" | awk -v n="$LARGE_QUERIES" '/^>/ { k++ } k <= n' > "$tmp/large-queries.fa"
# The large case runs its own shape (the skew rule): cold first, as the example's does.
lockstep_run large-cold "$tmp/large-queries.fa" "$tmp/large.fa"
variants_run large-cold "$tmp/large-queries.fa" "$tmp/large.fa"
lockstep_run large "$tmp/large-queries.fa" "$tmp/large.fa"
variants_run large "$tmp/large-queries.fa" "$tmp/large.fa"
lockstep_run large-outfmt6 "$tmp/large-queries.fa" "$tmp/large.fa" --outfmt 6
makedb_run large "$tmp/large.fa" "$tmp/large.lsdb"
SAME_AS=large lockstep_run large-lsdb "$tmp/large-queries.fa" "$tmp/large.lsdb"
SAME_AS=large-outfmt6 lockstep_run large-lsdb-outfmt6 "$tmp/large-queries.fa" "$tmp/large.lsdb" \
  --outfmt 6
# The kernel's shapes (SWEEP="L:S[:F] ...": --local-size L --stripe S --algorithm inter+F
# each; the default shape is the runs above) on the large case, then on the example DB:
# kernel_tcups= from kernel_ms= (the packed kernels' device time), device_tcups= from ms= (the
# search's, packing and ranking overlapped), tcups= from wall_s= (the process, reading included).
# Each shape runs first as CASE-SHAPE-cold (its kernels built and cached) on the large case, the
# variants' builds too, as the default shape's cold run does above.
for c in large example; do
  for shape in ${SWEEP:-}; do
    IFS=: read -r l s f <<< "$shape"
    args=(--local-size "$l" --stripe "$s" --algorithm "inter+${f:-plain}")
    if [[ $c == large ]]; then
      lockstep_run "large-$shape-cold" "$tmp/large-queries.fa" "$tmp/large.fa" "${args[@]}"
      for v in ${VARIANTS:-}; do
        BIN=${v#*=} lockstep_run "large-$shape-cold@${v%%=*}" "$tmp/large-queries.fa" \
          "$tmp/large.fa" "${args[@]}"
      done
      lockstep_run "large-$shape" "$tmp/large-queries.fa" "$tmp/large.fa" "${args[@]}"
      variants_run "large-$shape" "$tmp/large-queries.fa" "$tmp/large.fa" "${args[@]}"
    else
      lockstep_run "example-$shape" "$QUERIES" "$DB" "${args[@]}"
      variants_run "example-$shape" "$QUERIES" "$DB" "${args[@]}"
    fi
  done
done
if [[ -n "$build_pid" ]]; then
  wait "$build_pid" || true
  [[ -x "$cudasw/align" ]] || echo "tool=cudasw4 skipped=1 reason=build_failed(see_cudasw-build.log)" | tee -a "$txt"
  cudasw_run example "$QUERIES" "$DB"
  cudasw_run large "$tmp/large-queries.fa" "$tmp/large.fa"
fi
# parasail last, on an idle host
out=$(timeout "${STEP_TIMEOUT:-150}" "$py" "$here/search_parasail.py" "$QUERIES" "$DB" --matrix "$(ls /usr/share/ncbi/data/BLOSUM62 "$data/BLOSUM62" 2>/dev/null | head -1)" \
        --queries "$PARASAIL_QUERIES" --threads "$THREADS" --top "$TOP" \
        --lockstep "$tmp/example-lockstep.tsv" 2>> "$OUT/search.err")
echo "$out" | grep '^# differs' | head -5 | tee -a "$txt"
if line=$(grep '^tool=parasail' <<< "$out"); then
  echo "case=example $line $(awk -v g="$(kv gcups <<< "$line")" 'BEGIN { printf "tcups=%.4f", g / 1000 }')" |
    tee -a "$txt"
else
  echo "case=example tool=parasail error=1 (see search.err)" | tee -a "$txt"
fi
"${plot_py:-python3}" "$here/plot_search.py" "$txt" "$OUT/search.png" 2>> "$OUT/search.err" ||
  echo "plot skipped (see $OUT/search.err)"
rm -rf "$tmp"
exit 0
