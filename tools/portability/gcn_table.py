#!/usr/bin/env python3
"""Reads compile_kernels.sh's results (status, target, family, file, options, output path), fails
on any FAIL (printing the compiler's log), and prints per (family, kernel, target) the worst
variant: VGPRs (+AGPRs), SGPRs, scratch bytes, spills and waves per SIMD from the VGPR count.

Waves per SIMD, as LLVM's AMDGPU backend computes them (AMDGPUBaseInfo getVGPRAllocGranule,
getTotalNumVGPRs, getMaxWavesPerEU): min(max waves, file // round_up(VGPRs, granule)), where
  gfx90a, gfx942 (CDNA2/3): 512-entry unified VGPR+AGPR file per lane, granule 8, 8 waves max;
    the count is TotalNumVgprs = round_up(arch VGPRs, 4) + AGPRs;
  gfx1100 (RDNA3, full VGPR file): wave32 1536 entries, granule 24; wave64 768, granule 12;
    16 waves max.
The `lds` column is the kernel's static local memory (group_segment_fixed_size; __local kernel
arguments are not in it) and `waves` is the VGPR bound lowered by it: work-groups per LDS pool
(64 KiB per CU on gfx90a/gfx942; 128 KiB per WGP on gfx1100) times the waves of one group
(LOCAL_SIZE from the options, else 256, over the wave size), over the pool's SIMDs (4). LLVM's own
figure, which assumes the largest work-group its metadata allows, is the `llvm_occ` column.
Full per-build rows go to builds.tsv beside the input."""
import collections, os, re, sys

FILE = {"gfx90a": (512, 8, 8), "gfx942": (512, 8, 8), "gfx1100": (1536, 24, 16),
        "gfx1100w64": (768, 12, 16)}
# LDS pool in bytes, SIMDs sharing it, wave size
LDS = {"gfx90a": (65536, 4, 64), "gfx942": (65536, 4, 64), "gfx1100": (131072, 4, 32),
       "gfx1100w64": (131072, 4, 64)}


def waves(target, vgprs, lds=0, local=256):
    total, granule, most = FILE[target]
    w = min(most, total // (-(-max(1, vgprs) // granule) * granule))
    if lds > 0:
        pool, simds, wave = LDS[target]
        w = min(w, round((pool // lds) * (-(-local // wave)) / simds, 2))  # may be below 1
    return w


def local_size(options):
    m = re.search(r"-D LOCAL_SIZE=(\d+)", options)
    return int(m.group(1)) if m else 256


def parse_asm(path):
    """{kernel: {vgpr, agpr, total, sgpr, scratch, occ, vspill, sspill}} from clang -S output."""
    k, cur, in_meta, entry = {}, None, False, None
    for line in open(path):
        m = re.match(r"\s+\.type\s+(\S+),@function", line)
        if m:
            cur = k.setdefault(m.group(1), {})
            continue
        m = re.match(r"; (NumVgprs|NumAgprs|TotalNumVgprs|NumSgprs|ScratchSize|Occupancy): (\d+)", line)
        if m and cur is not None:
            cur[m.group(1)] = int(m.group(2))
            continue
        if line.startswith("amdhsa.kernels:"):
            in_meta = True
        elif in_meta:
            if re.match(r"  - \.", line):
                entry = {}
            m = re.match(r"(?:  - |    )\.(\w+):\s+(\S+)", line)
            if m and entry is not None:
                entry[m.group(1)] = m.group(2)
                if m.group(1) in ("vgpr_spill_count", "wavefront_size", "group_segment_fixed_size"):
                    if "name" in entry and entry["name"] in k:
                        k[entry["name"]].update(entry)
            if line.startswith("amdhsa.target") or line.startswith("..."):
                in_meta = False
    out = {}
    for name, v in k.items():
        if "NumVgprs" not in v or "name" not in v:
            continue  # not a kernel (a helper function the kernels inline)
        out[name] = dict(vgpr=v["NumVgprs"], agpr=v.get("NumAgprs", 0),
                         total=v.get("TotalNumVgprs", v["NumVgprs"]), sgpr=v.get("NumSgprs", 0),
                         scratch=v.get("ScratchSize", 0), occ=v.get("Occupancy", 0),
                         lds=int(v.get("group_segment_fixed_size", 0)),
                         vspill=int(v.get("vgpr_spill_count", 0)),
                         sspill=int(v.get("sgpr_spill_count", 0)))
    return out


def main():
    results = sys.argv[1]
    rows, fails, spirv = [], [], collections.Counter()
    for line in open(results):
        status, target, family, file, options, path = line.rstrip("\n").split("\t")
        if status != "OK":
            fails.append((target, family, file, options, path))
        elif target == "spirv":
            spirv[family] += 1
        else:
            for kern, v in parse_asm(path).items():
                rows.append((family, kern, target, options, v,
                             waves(target, v["total"], v["lds"], local_size(options))))
    for target, family, file, options, log in fails:
        print(f"FAIL {target} {file} [{options}] ({family}):")
        sys.stdout.write(open(log).read())
    with open(os.path.join(os.path.dirname(results), "builds.tsv"), "w") as f:
        f.write("family\tkernel\ttarget\tvgpr\tagpr\tsgpr\tlds\tscratch\tvgpr_spill\tsgpr_spill\twaves\tllvm_occ\toptions\n")
        for fam, kern, t, o, v, w in rows:
            f.write(f"{fam}\t{kern}\t{t}\t{v['total']}\t{v['agpr']}\t{v['sgpr']}\t{v['lds']}\t{v['scratch']}\t"
                    f"{v['vspill']}\t{v['sspill']}\t{w}\t{v['occ']}\t{o}\n")
    worst = {}
    for fam, kern, t, o, v, w in rows:
        key = (fam, kern, t)
        rank = (v["vspill"] + v["sspill"] > 0, v["scratch"], -w, v["total"])
        if key not in worst or rank > worst[key][0]:
            n = worst[key][2] + 1 if key in worst else 1
            worst[key] = (rank, (v, w, o), n)
        else:
            worst[key] = (worst[key][0], worst[key][1], worst[key][2] + 1)
    print(f"{'family':<13} {'kernel':<22} {'target':<10} {'builds':>6} {'vgpr':>5} {'agpr':>4} "
          f"{'sgpr':>4} {'lds':>6} {'scratch':>7} {'spills':>7} {'waves':>5} {'llvm_occ':>8}  worst variant")
    flagged = []
    for (fam, kern, t), (_, (v, w, o), n) in sorted(worst.items()):
        spills = f"{v['vspill']}/{v['sspill']}"
        print(f"{fam:<13} {kern:<22} {t:<10} {n:>6} {v['total']:>5} {v['agpr']:>4} {v['sgpr']:>4} {v['lds']:>6} "
              f"{v['scratch']:>7} {spills:>7} {w:>5g} {v['occ']:>8}  {o}")
        if t == "gfx90a" and (v["scratch"] > 0 or v["vspill"] or v["sspill"] or w < 4):
            flagged.append(f"{fam}/{kern}: {v['total']} VGPRs, {v['lds']} B LDS, {w} waves/SIMD, "
                           f"scratch {v['scratch']} B, spills {spills} [{o}]")
    print(f"SPIR-V (clang-15 + llvm-spirv-15, spirv-val --target-env opencl2.2): "
          + ", ".join(f"{f} {n}" for f, n in sorted(spirv.items())) + " builds valid")
    if any(t == "gfx90a" for (_, _, t) in worst):
        print("gfx90a: spills, scratch or < 4 waves/SIMD (worst variant): " + ("none" if not flagged else ""))
    for f in flagged:
        print("  " + f)
    if fails:
        print(f"compile_kernels: {len(fails)} build(s) FAILED")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
