#!/usr/bin/env bash
# Runs the doctest cases matching $1 (default '*') one process each on the GPU machine's PoCL
# CPU device, each under its own timeout ($2 s, default 60), printing a verdict line per case, so
# that a hang or a compiler abort in one case names that case and spares the others.
# Use (from the repository root, after opencl-env.sh): tools/gpu/pocl_cases.sh 'sort*' 60
pattern=${1:-*}
limit=${2:-60}
tests=${LOCKSTEP_TESTS:-.carry/lockstep_tests}
"$tests" -ltc -tc="$pattern" 2>/dev/null | grep -v '^\[doctest\]\|^=\+$' | sed '/^\s*$/d' |
  while IFS= read -r name; do
    start=$SECONDS
    # doctest splits filters at commas: a "?" wildcard stands for each comma of the name
    LOCKSTEP_DEVICE=${POCL_DEVICE:-portable} timeout "$limit" "$tests" -tc="${name//,/?}" > /tmp/case.log 2>&1
    rc=$?
    echo "case=\"$name\" rc=$rc s=$((SECONDS - start)) $(grep -o 'test cases: *[0-9]* | *[0-9]* passed' /tmp/case.log | tail -1) $(grep -o 'Status: [A-Z]*' /tmp/case.log | tail -1)"
    [[ $rc -ne 0 ]] && grep -v '^lockstep: build' /tmp/case.log | grep -m3 'ERROR\|Assertion\|CRASH'
  done
