# Sourced by the bench and GPU scripts: value extraction from lockstep's key=value lines through
# tools/bench/kv.py, the one parser (quoted values whole, old key spellings read):
#   kv KEY... < LINES       KEY's value of every line that has all KEYs, tab-separated
#   kv -p KEY... < LINES    KEY=value for each KEY a line has (lines with none skipped)
# Filter lines first with grep '^prefix' where a script needs only some of them.
kv_py="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/kv.py"
kv_python=python3
[[ -x /usr/bin/python3 ]] && kv_python=/usr/bin/python3
kv() {
  if [[ "${1:-}" == -p ]]; then shift; "$kv_python" "$kv_py" -p - "$@"; else "$kv_python" "$kv_py" - "$@"; fi
}
