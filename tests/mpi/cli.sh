#!/usr/bin/env bash
# The distributed CLI under mpiexec: `cg --distributed` and `spmv --distributed --verify` (double
# and float) on 2 ranks print the usual last line plus ranks=2; --kernel with --distributed is a
# usage error (exit 2); a bad file (rank 0) and a missing device (rank 1) end every rank with the
# same message and exit 1, never a hang (each run is under `timeout`).
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

out=$(run spmv "$src/matrices/powerlaw_1000.mtx" --distributed --verify --repeat 3 2>&1); rc=$?
echo "$out" | tail -1
expect "spmv --distributed --verify exits 0" "[[ $rc -eq 0 ]]"
expect "spmv --distributed verified" "[[ \"\$(echo \"\$out\" | tail -1)\" == *verified=1\ ranks=2 ]]"

out=$(run spmv "$src/matrices/banded_1000_3.mtx" --distributed --verify --precision float --repeat 2 2>&1); rc=$?
expect "spmv --distributed --precision float verified" "[[ $rc -eq 0 && \"\$(echo \"\$out\" | tail -1)\" == *verified=1\ ranks=2 ]]"
run spmv "$src/matrices/banded_1000_3.mtx" --distributed --kernel scalar > /dev/null 2>&1; rc=$?
expect "--kernel with --distributed is a usage error (exit 2)" "[[ $rc -eq 2 ]]"

out=$(run cg /nonexistent/missing.mtx --distributed 2>&1); rc=$?
echo "$out"
expect "a missing file exits 1 on every rank" "[[ $rc -eq 1 ]]"
expect "both ranks print rank 0's message" "[[ \$(echo \"\$out\" | grep -c 'lockstep cg: rank 0: .*missing.mtx') -eq 2 ]]"

out=$(run spmv "$src/matrices/banded_1000_3.mtx" --distributed --device ",no-such-device" 2>&1); rc=$?
echo "$out"
expect "a rank without a device exits 1" "[[ $rc -eq 1 ]]"
expect "both ranks print rank 1's message" "[[ \$(echo \"\$out\" | grep -c 'lockstep spmv: rank 1: .*no-such-device') -eq 2 ]]"
exit $fail
