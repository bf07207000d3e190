#!/usr/bin/env bash
# The distributed CLI under mpiexec: `cg --distributed` (classic and pipelined, Jacobi) and
# `spmv --distributed --verify` (double and float; an m x n matrix, y = A x and y = A^T x) on 2
# ranks print the usual last line plus ranks=2 (pipelined with --iteration-timeline: one
# iteration_timeline line per rank); --algorithm with --distributed is a usage error
# (exit 2); a bad file (rank 0), a missing device (rank 1) and a rectangular matrix given to cg
# end every rank with exit 1 and one message naming the failing rank, never a hang (each run is
# under `timeout`); so do two MPMD ranks given different problems. A generated grid in boxes
# (--partition blocks) on 4 ranks has a smaller halo per rank than slabs. `search --distributed`
# writes the bytes of one device at 2, 3 and 4 ranks.
# usage: cli.sh MPIEXEC LOCKSTEP SOURCE_DIR
set -uo pipefail
mpiexec=$1 lockstep=$2 src=$3
fail=0
run() { timeout 120 "$mpiexec" -np 2 --oversubscribe "$lockstep" "$@"; }
expect() {  # expect NAME CONDITION
  if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; fail=1; fi
}

out=$(run cg "$src/matrices/laplace2d_64.mtx" --distributed --tol 1e-8 2>&1); rc=$?
echo "$out" | tail -3
expect "cg --distributed exits 0" "[[ $rc -eq 0 ]]"
expect "cg --distributed verified on 2 ranks" "[[ \"\$(echo \"\$out\" | tail -1)\" == *verified=1\ ranks=2 ]]"
expect "cg --distributed prints a timeline per rank" "[[ \$(echo \"\$out\" | grep -c '^timeline rank=') -eq 2 ]]"

# The halo path: shared memory between the ranks of this host by default, MPI on request.
expect "... its halo through shared memory (shared_neighbours=2)" "[[ \"\$(echo \"\$out\" | tail -1)\" == *' shared_neighbours=2 '* ]]"
out=$(LOCKSTEP_MPI_HALO=mpi run cg "$src/matrices/laplace2d_64.mtx" --distributed --algorithm pipelined 2>&1); rc=$?
expect "LOCKSTEP_MPI_HALO=mpi: pipelined cg verified through MPI (shared_neighbours=0)" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *' shared_neighbours=0 '*verified=1\ ranks=2 ]]"
# A file that is not symmetric: rank 0's check (the one-device cg's), one message, exit 1.
nonsym=$(mktemp --suffix=.mtx)
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 4\n2 2 4\n3 3 4\n1 2 1\n2 1 2\n' > "$nonsym"
out=$(run cg "$nonsym" --distributed 2>&1); rc=$?
rm -f "$nonsym"
expect "cg --distributed on a non-symmetric file exits 1 with one message" "[[ $rc -eq 1 && \$(echo \"\$out\" | grep -c 'lockstep cg: rank 0: .*not symmetric: entry (1, 2) is 1 but (2, 1) is 2') -eq 1 ]]"

out=$(run cg "$src/matrices/laplace2d_64.mtx" --distributed --algorithm pipelined --preconditioner jacobi 2>&1); rc=$?
echo "$out" | tail -1
expect "cg --distributed --algorithm pipelined --preconditioner jacobi verified" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *algorithm=pipelined\ preconditioner=jacobi*verified=1\ ranks=2 ]]"

# A grid generated slab by slab on the ranks (--partition planes, the default for gen:), on 3
# ranks: one partition line per rank, each inner slab receiving one 10 x 8 plane per neighbour.
out=$(timeout 120 "$mpiexec" -np 3 --oversubscribe "$lockstep" cg gen:laplace3d:10x8x9 --distributed --algorithm pipelined 2>&1); rc=$?
echo "$out" | grep -E '^(partition|matrix=)'
expect "cg gen:laplace3d:10x8x9 on 3 ranks verified, partition planes" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *rows=720\ partition=planes*verified=1\ ranks=3 ]]"
expect "... a partition line per rank, the middle one with a halo of 2 planes" "[[ \$(echo \"\$out\" | grep -c '^partition rank=') -eq 3 && \"\$out\" == *'partition rank=1 first_row=240 rows=240 nnz='*' halo=160 send=160 neighbours=2'* ]]"
out=$(run spmv "$src/matrices/laplace2d_64.mtx" --distributed --partition planes --verify --repeat 2 2>&1); rc=$?
expect "spmv --partition planes on a file (its bandwidth) verified" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *verified=1\ ranks=2 && \"\$out\" == *'partition rank=1 first_row=2048 '* ]]"
run cg gen:laplace3d:8 --distributed --partition rows > /dev/null 2>&1; rc=$?
expect "--partition rows is a usage error (exit 2)" "[[ $rc -eq 2 ]]"
# Boxes (--partition blocks) on 4 ranks: a 12^3 grid on the 1 x 2 x 2 ranks grid, each rank's halo
# two 12 x 6 faces (144 values, a slab's two planes: 288); the solve's parts timed apart (start,
# replacements, steady); --reduction blocking solves it too. A ranks grid of another size, blocks
# of a file and an unknown reduction are refused.
out=$(timeout 120 "$mpiexec" -np 4 --oversubscribe "$lockstep" cg gen:laplace3d:12 --distributed --algorithm pipelined --replace-every 10 --partition blocks 2>&1); rc=$?
echo "$out" | grep -E '^(partition|matrix=)'
expect "cg --partition blocks on 4 ranks: blocks:1x2x2, verified" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *partition=blocks:1x2x2\ *verified=1\ ranks=4 ]]"
expect "... every rank's halo two half planes (144)" "[[ \$(echo \"\$out\" | grep -c '^partition rank=.* halo=144 send=144 neighbours=2 ') -eq 4 ]]"
expect "... start_ms, replacements (> 0), replacement_ms, steady_ms, iter_ms_steady" "[[ \"\$(echo \"\$out\" | tail -1)\" =~ start_ms=[0-9.e+-]+\ replacements=[1-9][0-9]*\ replacement_ms=[0-9.e+-]+\ steady_ms=[0-9.e+-]+\ iter_ms_steady= ]]"
out=$(run cg gen:laplace3d:10 --distributed --algorithm pipelined --partition blocks:1x2x1 --reduction blocking 2>&1); rc=$?
expect "--partition blocks:1x2x1 --reduction blocking verified on 2 ranks" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *partition=blocks:1x2x1\ *reduction=blocking*verified=1\ ranks=2 ]]"
out=$(run cg gen:laplace3d:10 --distributed --partition blocks:3x1x1 2>&1); rc=$?
expect "--partition blocks:3x1x1 on 2 ranks exits 1 with one message" "[[ $rc -eq 1 && \$(echo \"\$out\" | grep -c 'lockstep cg: rank 0: block partition: the ranks grid 3x1x1 is not 2 ranks') -eq 1 ]]"
run cg "$src/matrices/laplace2d_64.mtx" --distributed --partition blocks > /dev/null 2>&1; rc=$?
expect "--partition blocks on a file is a usage error (exit 2)" "[[ $rc -eq 2 ]]"
run cg gen:laplace3d:8 --distributed --reduction eager > /dev/null 2>&1; rc=$?
expect "--reduction eager is a usage error (exit 2)" "[[ $rc -eq 2 ]]"
out=$(run cg gen:laplace3d:8x0 --distributed 2>&1); rc=$?
expect "a bad grid exits 1 with one message" "[[ $rc -eq 1 && \$(echo \"\$out\" | grep -c 'rank 0: gen:laplace3d:8x0: N = 0 out of range') -eq 1 ]]"

# Pipelined CG runs its SpMV inside the update kernel when the matrix's SpMV is one row per
# work-item (as the CPU always predicts), on one rank and on several, and says so.
out=$(timeout 120 "$mpiexec" -np 1 "$lockstep" cg "$src/matrices/laplace2d_64.mtx" --distributed --algorithm pipelined 2>&1); rc=$?
echo "$out" | tail -1
expect "cg --distributed --algorithm pipelined on 1 rank: spmv_fused=1, verified" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *spmv_fused=1\ *verified=1\ ranks=1 ]]"
expect "... and on 2 ranks too (boundary rows, the exchange, interior rows)" "[[ \"\$(run cg \"$src/matrices/laplace2d_64.mtx\" --distributed --algorithm pipelined 2>&1 | tail -1)\" == *spmv_fused=1\ *verified=1\ ranks=2 ]]"
expect "... and --separate-spmv makes the SpMV its own launch" "[[ \"\$(run cg \"$src/matrices/laplace2d_64.mtx\" --distributed --algorithm pipelined --separate-spmv 2>&1 | tail -1)\" == *spmv_fused=0\ *verified=1\ ranks=2 ]]"
out=$(run cg "$src/matrices/laplace2d_64.mtx" --distributed --algorithm pipelined --iteration-timeline 20 2>&1); rc=$?
echo "$out" | grep '^iteration_timeline' | head -1
expect "--iteration-timeline 20: one iteration_timeline line per rank, 10 fused iterations each" "[[ $rc -eq 0 && \$(echo \"\$out\" | grep -c '^iteration_timeline rank=[01] first=20 sampled=10 .* device_gap=.* host_next=') -eq 2 ]]"
run cg "$src/matrices/laplace2d_64.mtx" --distributed --iteration-timeline 20 > /dev/null 2>&1; rc=$?
expect "--iteration-timeline without --algorithm pipelined is a usage error (exit 2)" "[[ $rc -eq 2 ]]"

# A 1033 x 320 least-squares-shaped matrix (6 entries per row), written here.
rect=$(mktemp --suffix=.mtx)
trap 'rm -f "$rect"' EXIT
awk 'BEGIN { srand(3); print "%%MatrixMarket matrix coordinate real general"; print "1033 320 6198";
             for (r = 1; r <= 1033; ++r) for (k = 0; k < 6; ++k) printf "%d %d %.6f\n", r, 1 + int(rand() * 320), rand() - 0.5 }' > "$rect"
for t in "" --transpose; do
  out=$(run spmv "$rect" --distributed --verify --repeat 2 $t 2>&1); rc=$?
  echo "$out" | tail -1
  expect "spmv --distributed $t on 1033 x 320 verified" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *rows=1033\ cols=320*verified=1\ ranks=2 ]]"
done
out=$(run cg "$rect" --distributed 2>&1); rc=$?
echo "$out"
expect "cg --distributed on 1033 x 320 exits 1" "[[ $rc -eq 1 ]]"
expect "... with one message naming rank 0" "[[ \$(echo \"\$out\" | grep -c 'lockstep cg: rank 0: .*square matrix, not 1033 x 320') -eq 1 ]]"

out=$(run spmv "$src/matrices/powerlaw_1000.mtx" --distributed --verify --repeat 3 2>&1); rc=$?
echo "$out" | tail -1
expect "spmv --distributed --verify exits 0" "[[ $rc -eq 0 ]]"
expect "spmv --distributed verified" "[[ \"\$(echo \"\$out\" | tail -1)\" == *verified=1\ ranks=2 ]]"

out=$(run spmv "$src/matrices/banded_1000_3.mtx" --distributed --verify --precision float --repeat 2 2>&1); rc=$?
expect "spmv --distributed --precision float verified" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *verified=1\ ranks=2 ]]"
run spmv "$src/matrices/banded_1000_3.mtx" --distributed --algorithm scalar > /dev/null 2>&1; rc=$?
expect "--algorithm with --distributed is a usage error (exit 2)" "[[ $rc -eq 2 ]]"

out=$(run cg /nonexistent/missing.mtx --distributed 2>&1); rc=$?
echo "$out"
expect "a missing file exits 1 on every rank" "[[ $rc -eq 1 ]]"
expect "rank 0's message, printed once" "[[ \$(echo \"\$out\" | grep -c 'lockstep cg: rank 0: .*missing.mtx') -eq 1 ]]"

out=$(run spmv "$src/matrices/banded_1000_3.mtx" --distributed --device ",no-such-device" 2>&1); rc=$?
echo "$out"
expect "a rank without a device exits 1" "[[ $rc -eq 1 ]]"
expect "rank 1's message, printed once" "[[ \$(echo \"\$out\" | grep -c 'lockstep spmv: rank 1: .*no-such-device') -eq 1 ]]"
# bfs --distributed: R-MAT drawn on the ranks, Graph500 keys, validated; a SNAP file scattered
# from rank 0; a source out of range, a missing file and a rank without a device end every rank
# with one message; an unknown direction is a usage error. One rank runs the one-device engine.
out=$(run bfs --rmat 9 --edge-factor 8 --distributed --sources 3 --validate 2>&1); rc=$?
echo "$out" | tail -1
expect "bfs --distributed --rmat 9 validated on 2 ranks" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *sources=3\ runs=3\ algorithm=auto*valid=1\ ranks=2 ]]"
expect "... one line per search" "[[ \$(echo \"\$out\" | grep -c '^source=') -eq 3 ]]"
expect "... the first search's levels as timeline lines, pairs sent" "[[ \$(echo \"\$out\" | grep -c '^timeline level=.* sent_max=.* one_device=0') -ge 2 ]]"
# 3 ranks forced top-down from 517 on R-MAT 15: the ranks' pair buffers differ, and a level once
# sent one rank bottom-up and the others top-down (a hang); every level must run top-down.
out=$(timeout 120 "$mpiexec" -np 3 --oversubscribe "$lockstep" bfs --rmat 15 --distributed --source 517 --algorithm top-down --validate 2>&1); rc=$?
echo "$out" | tail -1
expect "bfs --distributed --rmat 15 top-down from 517 on 3 ranks: no hang, every level top-down" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *valid=1\ ranks=3 && \"\$out\" == *'top_down_levels=5 bottom_up_levels=0'* ]]"
out=$(timeout 120 "$mpiexec" -np 1 "$lockstep" bfs --rmat 9 --edge-factor 8 --distributed --sources 2 --validate 2>&1); rc=$?
echo "$out" | tail -1
expect "bfs --distributed on 1 rank: the one-device engine, validated" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *valid=1\ ranks=1 && \"\$out\" == *'one_device=1'* ]]"
graph=$src/../shared/graphs/wiki-Vote.txt.gz
if [[ -f "$graph" ]]; then
  out=$(run bfs "$graph" --distributed --source 30 --validate --algorithm bottom-up 2>&1); rc=$?
  echo "$out" | tail -1
  expect "bfs --distributed on wiki-Vote (bottom-up) validated" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *valid=1\ ranks=2 ]]"
else
  echo "skipped: no $graph"
fi
out=$(run bfs --rmat 6 --distributed --source 64 2>&1); rc=$?
echo "$out"
expect "bfs --distributed with a source out of range exits 1 with one message" "[[ $rc -eq 1 && \$(echo \"\$out\" | grep -c 'lockstep bfs: rank 0: bfs: source 64 outside \[0, 64)') -eq 1 ]]"
out=$(run bfs /nonexistent/missing.txt.gz --distributed 2>&1); rc=$?
echo "$out"
expect "bfs --distributed with a missing file exits 1 with rank 0's message once" "[[ $rc -eq 1 && \$(echo \"\$out\" | grep -c 'lockstep bfs: rank 0: .*missing.txt.gz') -eq 1 ]]"
out=$(run bfs --rmat 6 --distributed --device ",no-such-device" 2>&1); rc=$?
echo "$out"
expect "bfs --distributed with a rank without a device exits 1 with rank 1's message once" "[[ $rc -eq 1 && \$(echo \"\$out\" | grep -c 'lockstep bfs: rank 1: .*no-such-device') -eq 1 ]]"
run bfs --rmat 6 --distributed --algorithm lb > /dev/null 2>&1; rc=$?
expect "bfs --distributed --algorithm lb is a usage error (exit 2)" "[[ $rc -eq 2 ]]"
# Two MPMD ranks given different problems: refused in the first collective (a hash of the
# problem), with one message and exit 1; it used to hang in mismatched collectives.
out=$(timeout 120 "$mpiexec" --oversubscribe -np 1 "$lockstep" cg "$src/matrices/laplace2d_64.mtx" \
  --distributed : -np 1 "$lockstep" cg gen:laplace2d:8 --distributed 2>&1); rc=$?
expect "cg --distributed with a different problem on each rank exits 1, named" "[[ $rc -eq 1 && \$(echo \"\$out\" | grep -c 'lockstep cg: rank 0: the ranks were given different problems') -eq 1 ]]"
# search --distributed: the hits file of one device, byte for byte, at 2, 3 and 4 ranks (a FASTA
# and the prepared database), a database of fewer subjects than ranks with a query longer than
# every subject; a corrupt byte in rank 1's share of the prepared database, a missing database
# (rank 0) and a rank without a device end every rank with one
# message; --devices with --distributed is a usage error.
examples=/usr/share/doc/mmseqs2/example-data
if [[ -f $examples/DB.fasta.gz ]]; then
  dir=$(mktemp -d)
  trap 'rm -f "$rect"; rm -rf "$dir"' EXIT
  zcat $examples/DB.fasta.gz | awk '/^>/{n++} n<=300' > "$dir/db.fa"
  zcat $examples/QUERY.fasta.gz | awk '/^>/{n++} n<=3' > "$dir/q.fa"
  "$lockstep" makedb "$dir/db.fa" "$dir/db.lsdb" > /dev/null 2>&1
  shape=(--top 20 --evalue 1e300 --outfmt 6 --local-size 32 --stripe 16)
  "$lockstep" search "$dir/q.fa" "$dir/db.fa" "${shape[@]}" --out "$dir/one.tsv" > /dev/null 2>&1
  expect "search on one device wrote 60 hits" "[[ \$(wc -l < \"$dir/one.tsv\") -eq 60 ]]"
  for np in 2 3 4; do
    for db in db.fa db.lsdb; do
      out=$(timeout 120 "$mpiexec" -np $np --oversubscribe "$lockstep" search "$dir/q.fa" "$dir/$db" "${shape[@]}" --distributed --out "$dir/dist.tsv" 2>&1); rc=$?
      expect "search --distributed on $np ranks ($db): the bytes of one device, ranks=$np" "[[ $rc -eq 0 && \"\$out\" == *' ranks=$np '* ]] && cmp -s \"$dir/one.tsv\" \"$dir/dist.tsv\""
    done
  done
  # a byte of the prepared database's codes at 3/4 (rank 1's share) corrupted: refused once,
  # naming the file, no output
  cp "$dir/db.lsdb" "$dir/bad.lsdb"
  at=$(od -An -t u8 -j 64 -N 8 "$dir/bad.lsdb" | tr -d ' '); n=$(od -An -t u8 -j 24 -N 8 "$dir/bad.lsdb" | tr -d ' ')
  printf '\x7f' | dd of="$dir/bad.lsdb" bs=1 seek=$((at + n * 3 / 4)) conv=notrunc 2> /dev/null
  out=$(timeout 120 "$mpiexec" -np 2 --oversubscribe "$lockstep" search "$dir/q.fa" "$dir/bad.lsdb" "${shape[@]}" --distributed --out "$dir/bad.tsv" 2>&1); rc=$?
  expect "search --distributed of a corrupt share exits 1, naming the file once" "[[ $rc -eq 1 && \$(echo \"\$out\" | grep -c 'bad.lsdb: corrupt lockstep database') -eq 1 && ! -e \"$dir/bad.tsv\" ]]"
  awk '/^>/{n++} n<=2' "$dir/db.fa" > "$dir/two.fa"
  { echo '>long'; zcat $examples/QUERY.fasta.gz | grep -v '^>' | head -40 | tr -d '\n'; echo; } > "$dir/long.fa"
  "$lockstep" search "$dir/long.fa" "$dir/two.fa" --outfmt 6 --evalue 1000 --out "$dir/one.tsv" > /dev/null 2>&1
  out=$(timeout 120 "$mpiexec" -np 3 --oversubscribe "$lockstep" search "$dir/long.fa" "$dir/two.fa" --outfmt 6 --evalue 1000 --distributed --out "$dir/dist.tsv" 2>&1); rc=$?
  expect "search --distributed: 2 subjects on 3 ranks, a query longer than both: the same bytes" "[[ $rc -eq 0 && -s \"$dir/one.tsv\" ]] && cmp -s \"$dir/one.tsv\" \"$dir/dist.tsv\""
  out=$(run search "$dir/q.fa" /nonexistent/missing.fa --distributed 2>&1); rc=$?
  expect "search --distributed with a missing database exits 1 with rank 0's message once" "[[ $rc -eq 1 && \$(echo \"\$out\" | grep -c 'lockstep search: rank 0: .*missing.fa') -eq 1 ]]"
  out=$(run search "$dir/q.fa" "$dir/db.fa" --distributed --device ",no-such-device" 2>&1); rc=$?
  expect "search --distributed with a rank without a device exits 1 with rank 1's message once" "[[ $rc -eq 1 && \$(echo \"\$out\" | grep -c 'lockstep search: rank 1: .*no-such-device') -eq 1 ]]"
  run search "$dir/q.fa" "$dir/db.fa" --distributed --devices all > /dev/null 2>&1; rc=$?
  expect "search --distributed --devices is a usage error (exit 2)" "[[ $rc -eq 2 ]]"
else
  echo "skipped: search --distributed: no $examples/DB.fasta.gz (Debian mmseqs2-examples)"
fi
exit $fail
