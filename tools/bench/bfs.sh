#!/usr/bin/env bash
# BFS benchmark (issue 11). (1) Graph500 R-MAT, scale 22, edge factor 16, undirected, generated
# in-process, 16 random non-isolated sources: GTEPS (harmonic mean; each undirected edge of the
# traversed component counted once) of the OpenMP direction-optimizing CPU BFS on all hardware
# threads, of every GPU strategy forced for all levels, and of auto. (2) The deep 2D grid
# 2048 x 2048 from a corner (4094 levels) and the copter2 mesh: auto against one launch per level
# (multi under the relaunch barrier, and the queue kernel). Per-level steps of auto go to
# $OUT/bfs_steps_*.txt; the plot (time per level, chosen strategy marked) to $OUT/bfs.png.
# Use: LOCKSTEP=build/lockstep OUT=/tmp/out [GRAPHS=../shared/graphs] [SCALE=22] tools/bench/bfs.sh
set -uo pipefail
: "${LOCKSTEP:?set LOCKSTEP to the lockstep binary}" "${OUT:?set OUT to the output folder}"
here=$(cd "$(dirname "$0")" && pwd)
scale=${SCALE:-22}
grid=${GRID:-2048}
graphs=${GRAPHS:-}
for d in "$here/../../.carry/graphs" "$here/../../../shared/graphs"; do
  [[ -z "$graphs" && -f "$d/copter2.gr.gz" ]] && graphs=$d
done
mkdir -p "$OUT"
txt="$OUT/bfs.txt"
: > "$txt"
run() { echo "# lockstep $*" >> "$txt"; "$LOCKSTEP" "$@" 2>> "$OUT/bfs.err" | tee -a "$txt"; }
echo "# edges: Graph500 convention, each undirected edge of the traversed component once" >> "$txt"
run bfs --rmat "$scale" --edge-factor 16 --sources 16 --validate \
    --strategy cpu,auto,bottom-up,queue,wave,multi --steps-out "$OUT/bfs_steps_rmat.txt"
run bfs --grid "$grid" --source 0 --repeat 2 --validate --strategy auto,single,queue,multi \
    --steps-out "$OUT/bfs_steps_grid.txt"
run bfs --grid "$grid" --source 0 --repeat 2 --strategy multi --barrier relaunch
if [[ -n "$graphs" ]]; then
  run bfs "$graphs/copter2.gr.gz" --sources 4 --repeat 2 --validate --strategy auto,single,queue,multi \
      --steps-out "$OUT/bfs_steps_copter2.txt"
  run bfs "$graphs/copter2.gr.gz" --sources 4 --repeat 2 --strategy multi --barrier relaunch
  run bfs "$graphs/soc-Slashdot0902.txt.gz" --undirected --sources 16 --validate --strategy cpu,auto,queue,wave,multi
else
  echo "# copter2 skipped: no graphs folder (set GRAPHS)" | tee -a "$txt"
fi
py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3  # Debian matplotlib
"$py" "$here/plot_bfs.py" "$OUT" "$OUT/bfs.png" 2>> "$OUT/bfs.err" || echo "plot skipped (see $OUT/bfs.err)"
exit 0
