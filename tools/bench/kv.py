"""The one key=value parser of the bench scripts: lockstep's CLI prints its results as
`key=value` words on a line (a value with spaces is double-quoted, e.g. spmv="algorithm=scalar
local_size=256"). The plotters and fitters import it; shell scripts source tools/bench/kv.sh
(its `kv KEY...` calls this file) or call it directly:

  python3 tools/bench/kv.py FILE KEY...      prints KEY's value of every line that has all KEYs,
                                             tab-separated, one line each (FILE - is stdin)
  python3 tools/bench/kv.py -p FILE KEY...   prints KEY=value for each KEY a line has, in the
                                             order given, one line per line that has any

Results written before the vocabulary rename spell some keys the old way; fields() reads both, so
a plotter asks for the new key only (the old key stays in the dict too):
  algorithm   <- kernel (spmv), variant (apsp; search: inter+VARIANT beside algorithm=inter,
                 plain: inter), strategy (bfs: a BFS strategy's name, on a line without
                 algorithm=)
  barrier     <- strategy (sort, align, bench barrier: every other strategy=)
  local_size  <- wg_bits (spmv: local_size = 2^wg_bits)
"""
import re
import shlex
import sys

# bfs's strategies: an old strategy= with one of these on a line without algorithm= was bfs's
# algorithm (sort and align lines carry algorithm= beside their strategy=, bench barrier's
# strategies are barrier names).
BFS_STRATEGIES = {"auto", "cpu", "single", "multi", "wave", "queue", "lb", "bottom-up"}


def words(line):
    """The words of a line, double-quoted values kept whole (an unbalanced quote: plain words)."""
    try:
        return shlex.split(line, comments=False)
    except ValueError:
        return line.split()


def is_pair(word):
    return "=" in word and not word.startswith("=")


def renamed(kv):
    """kv with the new keys filled in from their old spellings (see the module's comment)."""
    if "strategy" in kv:
        bfs = "algorithm" not in kv and kv["strategy"] in BFS_STRATEGIES
        kv.setdefault("algorithm" if bfs else "barrier", kv["strategy"])
    if kv.get("algorithm") == "inter" and kv.get("variant", "plain") != "plain":
        kv["algorithm"] = "inter+" + kv["variant"]  # search's kernel features
    for old in ("kernel", "variant"):
        if old in kv:
            kv.setdefault("algorithm", kv[old])
    if "wg_bits" in kv and "local_size" not in kv:
        try:
            kv["local_size"] = str(1 << int(kv["wg_bits"]))
        except ValueError:
            pass
    return kv


def fields(line):
    """The key=value words of one line as a dict (other words ignored; quotes honoured; old key
    spellings also under their new names)."""
    return renamed(dict(w.split("=", 1) for w in words(line) if is_pair(w)))


def get(line, key, default=None):
    """One key's value of a line (a string, or a dict from fields()), old spellings included."""
    kv = fields(line) if isinstance(line, str) else line
    return kv.get(key, default)


def label(line, until=None):
    """The text of a line before its first key=value word (quotes as written); with `until`, the
    text before the word `until=...` (key=value words included) when the line has one."""
    spans = [(m.start(), words(m.group())) for m in re.finditer(r'(?:[^\s"]|"[^"]*"|")+', line)]
    cut = next((at for at, w in spans if until and w and w[0].startswith(until + "=")), None)
    if cut is None:
        cut = next((at for at, w in spans if w and is_pair(w[0])), len(line))
    return line[:cut].strip()


def records(lines, *need):
    """fields() of every line that has every key in `need`."""
    out = []
    for line in lines:
        kv = fields(line)
        if all(k in kv for k in need):
            out.append(kv)
    return out


def main(argv):
    pairs = argv[:1] == ["-p"]
    argv = argv[1:] if pairs else argv
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    src = sys.stdin if argv[0] == "-" else open(argv[0])
    keys = argv[1:]
    if pairs:
        for line in src:
            kv = fields(line)
            words = [f'{k}="{kv[k]}"' if " " in kv[k] else f"{k}={kv[k]}" for k in keys if k in kv]
            if words:
                print(" ".join(words))
        return 0
    for kv in records(src, *keys):
        print("\t".join(kv[k] for k in keys))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
