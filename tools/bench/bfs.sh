#!/usr/bin/env bash
# BFS benchmark, one device, one command: the algorithms side by side.
# (1) Graph500 R-MAT, edge factor 16, scales $SCALES (default 22 23 24 25), undirected, generated
#     in-process; sources: random vertices of degree >= 1 in the largest connected component
#     (Graph500's search keys); GTEPS = harmonic mean (Graph500's figure) with median/min/max per
#     source, each undirected edge of the traversed component once; every run validated. Scale
#     22 runs every algorithm forced for all levels beside auto and the 16-core CPU BFS
#     (`--algorithm cpu`) with 16 sources; larger scales run auto, lb, bottom-up and the CPU with
#     8 sources (4 from scale 25). ALGS (a --algorithm list) and SOURCES replace both for every
#     scale: SCALES="24 25" ALGS=cpu,auto SOURCES=4 GRAPHS=none GRID=0 is RMAT 24 and 25 alone.
# (2) The real graphs in $GRAPHS (SNAP .txt.gz as directed, `-u` files listed in UNDIRECTED as
#     undirected; DIMACS .gr.gz; Matrix Market .mtx[.gz]) and any held-out ones there (NotreDame,
#     mdual): 16 sources, 5 runs each after 3 warm-up searches per algorithm, auto beside cpu and
#     the forced algorithms; compare algorithms by ms_median (each source's median run).
# (3) The deep 2D grid $GRID x $GRID from a corner: auto against one launch per level (multi under
#     the relaunch barrier, and the queue and lb kernels).
# Per-level steps (--steps-out) go to $OUT/bfs_steps_*.txt; the plot (time per level against
# frontier size by algorithm) to $OUT/bfs.png; the table to $OUT/bfs.txt.
# Use: LOCKSTEP=build/lockstep OUT=/tmp/out [GRAPHS=../shared/graphs] [SCALES="22 23 24 25"]
#      [ALGS=cpu,auto] [SOURCES=4] [GRID=2048] tools/bench/bfs.sh
#      (GRAPHS=none, SCALES="" or GRID=0 leave a part out)
# Most of the wall time is the host: the R-MAT graph is drawn and built in parallel (OpenMP; its
# time is graph_s= on each command's first line), then Graph500 validation of every run and the
# CPU runs; each command's wall time is logged after it in bfs.txt.
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP to the lockstep binary}" "${OUT:?set OUT to the output folder}"
here=$(cd "$(dirname "$0")" && pwd)
scales=${SCALES-22 23 24 25}
grid=${GRID:-2048}
graphs=${GRAPHS:-}
undirected=${UNDIRECTED:-facebook_combined}
for d in "$here/../../.carry/graphs" "$here/../../../shared/graphs"; do
  [[ -z "$graphs" && -d "$d" ]] && graphs=$d
done
mkdir -p "$OUT"
txt="$OUT/bfs.txt"
: > "$txt"
run() {
  echo "# lockstep $*" >> "$txt"
  local t0=$SECONDS
  "$LOCKSTEP" "$@" 2>> "$OUT/bfs.err" | tee -a "$txt"
  echo "# wall $((SECONDS - t0)) s (graph build, sources, warm-up, validation included)" >> "$txt"
}
echo "# edges: Graph500 convention, each undirected edge of the traversed component once" >> "$txt"
# OpenMP's idle threads sleep (OMP_WAIT_POLICY=passive unless set): on the 64-core host
# (four H100s' host) the threads of the validation's and the CPU algorithm's parallel
# regions, spinning after them, cost the next runs 1-9 ms at times; auto came 1.22-1.85x the
# fastest forced algorithm on three of the four real graphs with the default policy, 0.92-1.11x
# with passive, in the same call. The algorithms run one after another, the CPU last (the
# algorithm right after it ran slower at times on the 16- and 64-core hosts); INTERLEAVE=1 runs
# the real graphs' algorithms in turn for each source (--interleave), which cost soc-Slashdot's
# auto 10 % there (1.104 and 1.107 against 1.035 and 1.049 in blocks).
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
all=auto,lb,bottom-up,queue,wave,multi,cpu
interleave=""; [[ ${INTERLEAVE:-0} == 1 ]] && interleave=--interleave
for s in $scales; do
  if [[ $s == 22 ]]; then algs=$all k=16; else algs=auto,lb,bottom-up,cpu k=8; fi
  [[ $s -ge 25 ]] && k=4
  algs=${ALGS:-$algs} k=${SOURCES:-$k}
  run bfs --rmat "$s" --edge-factor 16 --sources "$k" --validate --algorithm "$algs" \
      --steps-out "$OUT/bfs_steps_rmat$s.txt"
done
if [[ -n "$graphs" ]]; then
  shopt -s nullglob
  for f in "$graphs"/*.txt.gz "$graphs"/*.gr.gz "$graphs"/*.mtx "$graphs"/*.mtx.gz; do
    name=$(basename "$f"); name=${name%%.*}
    extra=(); [[ ",$undirected," == *",$name,"* ]] && extra=(--undirected)
    run bfs "$f" "${extra[@]}" --sources 16 --repeat 5 --warmup 3 --validate --algorithm "$all" $interleave \
        --steps-out "$OUT/bfs_steps_$name.txt"
  done
else
  echo "# real graphs skipped: no graphs folder (set GRAPHS)" | tee -a "$txt"
fi
if [[ $grid -gt 0 ]]; then
  run bfs --grid "$grid" --source 0 --repeat 2 --validate --algorithm auto,single,multi,queue,lb \
      --steps-out "$OUT/bfs_steps_grid.txt"
  run bfs --grid "$grid" --source 0 --repeat 2 --algorithm multi --barrier relaunch
fi
py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3  # Debian matplotlib
"$py" "$here/plot_bfs.py" "$OUT" "$OUT/bfs.png" 2>> "$OUT/bfs.err" || echo "plot skipped (see $OUT/bfs.err)"
"$py" "$here/plot_bfs.py" --table "$txt" > "$OUT/bfs_table.md" 2>> "$OUT/bfs.err" || true
# auto within 10 % of the fastest forced algorithm on every graph (ALGS must force them)
"$py" "$here/plot_bfs.py" --check "$txt" | tee "$OUT/bfs_check.txt" || true
exit 0
