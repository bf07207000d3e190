#!/usr/bin/env bash
# The formatting check of .ci/run: clang-format-14 (Debian 12's clang-format) --dry-run -Werror
# with the checked-in .clang-format, over every C++ source, header and test (src, include,
# tools, tests, examples, python), except the OpenCL kernels (cl/: clang-format's handling of
# OpenCL C, its address spaces and vector literals, is not reviewed).
# Usage: tools/check_format.sh [--fix FILE...]   (exit 1 naming each file that is not formatted)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
cf=${CLANG_FORMAT:-clang-format-14}
command -v "$cf" >/dev/null || { echo "check_format: $cf not found (apt-get install clang-format-14)" >&2; exit 1; }
if [[ "${1:-}" == "--fix" ]]; then
  shift
  "$cf" -i "$@"
  exit 0
fi
EXCLUDE='^cl/'
mapfile -t files < <(git ls-files 'src/*' 'include/*' 'tools/*' 'tests/*' 'examples/*' 'python/*' |
                     grep -E '\.(cpp|hpp|h|cc)$' | grep -Ev "$EXCLUDE")
bad=()
for f in "${files[@]}"; do
  "$cf" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
  echo "check_format: not formatted as .clang-format says ($cf; fix with: $cf -i FILE):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files formatted (excluded: $EXCLUDE)"
