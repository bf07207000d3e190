#!/usr/bin/env bash
# Floyd-Warshall benchmark on one device. SET=full (default): n = 8192 for every variant
# (naive once, as the independent check), the K sweep of the generalized algorithm at n = 8192,
# r = 32 (K = 1 is classic blocked), tiles 16/32/64, i32 and --paths, n = 16384, and the threaded
# CPU blocked Floyd-Warshall on all host cores (n = 4096, extrapolated to 8192 by n^3).
# SET=micro (about 3 minutes on an H100): n = 8192 f32, tile 32, the old rule (4 x 4,
# fully unrolled, no overlap) against the bulk micro-tiles rows x columns 4x4, 8x4, 4x8, 16x4, 8x8
# with k-loop unroll 1, 2 or the whole chunk (0: the rule's), each without and with overlap (the next
# multi-tile's phases on a second queue), at K = 4 and for the best shapes K = 8; every line
# carries the per-kernel device times (ms_rest, ms_rest_next, ms_lead, ...).
# Graphs are generated (`--random N,density,seed`, integer weights 1..100, so f32 distances are
# exact and every run on the same graph must give the same sum_dist: checked at the end). Needs
# LOCKSTEP and OUT; N (default 8192), N_BIG (16384), N_CPU (4096), KS, TUNE=1 (all candidates),
# QUICK=1 (tiny sizes, for PoCL) optional.
set -uo pipefail
: "${LOCKSTEP:?}" "${OUT:?}"
log="$OUT/apsp.txt"
: > "$log"
n=${N:-8192}; nbig=${N_BIG:-16384}; ncpu=${N_CPU:-4096}; ks=${KS:-"1 2 3 4 6 8 12 16"}
dens=${DENSITY:-0.05}; rep=${REPEAT:-2}
if [[ "${QUICK:-0}" == 1 ]]; then n=256; nbig=384; ncpu=256; ks="1 2 4"; rep=1; fi

# run CASE ARGS...: one line = case, the configuration line and the summary line of the CLI.
run() {
  local case=$1; shift
  local out
  out=$("$LOCKSTEP" apsp "$@" 2>&1)
  local rc=$?
  if [[ $rc != 0 ]]; then
    echo "case=$case rc=$rc error=\"$(echo "$out" | tail -1 | tr -d '"')\"" | tee -a "$log"
    return
  fi
  echo "case=$case $(echo "$out" | grep '^device=' | head -1) $(echo "$out" | tail -1)" | tee -a "$log"
}

g="--random $n,$dens,1"
if [[ "${SET:-full}" == micro ]]; then
  # case=micro_RxC_uU_oO_kK: micro-tile rows x columns, unroll (0 = the whole chunk), overlap, K.
  m() { run "micro_${1}x${2}_u${3}_o${4}_k${5}" $g --algorithm generalized --tile 32 --K "$5" \
          --thread-rows "$1" --thread-tile "$2" --unroll "$3" --overlap "$4" --repeat "$rep"; }
  run old_rule $g --algorithm generalized --tile 32 --K 4 --thread-tile 4 --thread-rows 4 \
      --unroll 0 --overlap 0 --repeat "$rep"
  run rule $g --algorithm generalized --repeat "$rep"
  for o in 0 1; do
    m 4 4 0 $o 4
    for shape in "8 4" "4 8" "16 4" "8 8"; do
      for u in 1 2; do m $shape $u $o 4; done
    done
    m 8 4 8 $o 4
    m 8 8 1 $o 8
    m 16 4 1 $o 8
    m 4 4 0 $o 8
  done
  run micro_i32_8x8_u1_o1 $g --algorithm generalized --type i32 --tile 32 --K 4 --thread-rows 8 \
      --thread-tile 8 --unroll 1 --overlap 1 --repeat "$rep"
else
  run variant $g --algorithm naive --repeat 1
  run variant $g --algorithm blocked --tile 32 --repeat "$rep"
  run variant $g --algorithm generalized --repeat "$rep"  # the rule's choice
  for k in $ks; do
    run k_sweep $g --algorithm generalized --tile 32 --K "$k" --repeat "$rep"
  done
  for t in 16 64; do
    run tile $g --algorithm blocked --tile $t --repeat "$rep"
    run tile $g --algorithm generalized --tile $t --K $((128 / t)) --repeat "$rep"
  done
  run thread_tile $g --algorithm generalized --tile 32 --K 4 --thread-tile 8 --repeat "$rep"
  run i32 $g --algorithm generalized --type i32 --repeat "$rep"
  run paths $g --algorithm generalized --paths --path 1,$n --repeat 1
  run big --random "$nbig,$dens,1" --algorithm generalized --repeat "$rep"
  run cpu --random "$ncpu,$dens,1" --cpu --repeat 1
  run gpu_at_cpu_n --random "$ncpu,$dens,1" --algorithm generalized --repeat "$rep"
fi

if [[ "${TUNE:-0}" == 1 ]]; then  # every tile/K/thread-tile candidate (about 30 s at n = 8192)
  "$LOCKSTEP" tune apsp --random "$n,$dens,1" --no-store 2>&1 | sed 's/^/case=tune /' | tee -a "$log"
fi

# Every successful run at n on graph seed 1 must agree (f32 and i32 distances are exact).
python3 - "$log" "$n" "$ncpu" "$(dirname "${BASH_SOURCE[0]}")" <<'PY' | tee -a "$log"
import sys
log, n, ncpu = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, sys.argv[4])
from kv import fields  # the bench scripts' one key=value parser
sums = {}
cpu = gpu = None
for line in open(log):
    kv = fields(line)
    if "sum_dist" not in kv: continue
    sums.setdefault(kv["n"], set()).add((kv["sum_dist"], kv["reachable_pairs"]))
    if kv["case"] == "cpu": cpu = float(kv["ms"])
    if kv["case"] == "gpu_at_cpu_n": gpu = float(kv["ms"])
ok = all(len(v) == 1 for v in sums.values())
print(f"check=consistent_sum_dist ok={int(ok)} " + " ".join(f"n{k}={len(v)}" for k, v in sums.items()))
if cpu:
    scale = (int(n) / int(ncpu)) ** 3
    print(f"case=cpu_extrapolated n={n} from_n={ncpu} ms={cpu * scale:.1f} "
          f"gupdates_per_s={int(n) ** 3 / (cpu * scale * 1e6):.2f} gpu_speedup_at_{ncpu}={cpu / gpu if gpu else 0:.1f}")
PY
