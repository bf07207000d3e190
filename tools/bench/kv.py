"""The one key=value parser of the bench scripts: lockstep's CLI prints its results as
`key=value` words on a line (a value with spaces is double-quoted, e.g. spmv="kernel=scalar
wg_bits=8"). The plotters and fitters import it; shell scripts call it:

  python3 tools/bench/kv.py FILE KEY...      prints KEY's value of every line that has all KEYs,
                                             tab-separated, one line each (FILE - is stdin)
"""
import shlex
import sys


def fields(line):
    """The key=value words of one line as a dict (other words ignored; quotes honoured)."""
    try:
        words = shlex.split(line, comments=False)
    except ValueError:  # an unbalanced quote: plain words
        words = line.split()
    return dict(w.split("=", 1) for w in words if "=" in w and not w.startswith("="))


def records(lines, *need):
    """fields() of every line that has every key in `need`."""
    out = []
    for line in lines:
        kv = fields(line)
        if all(k in kv for k in need):
            out.append(kv)
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    src = sys.stdin if argv[0] == "-" else open(argv[0])
    for kv in records(src, *argv[1:]):
        print("\t".join(kv[k] for k in argv[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
