#!/usr/bin/env bash
# Adds what tools/bench/search.sh needs on the GPU machine to .carry/ (after tools/gpu/prepare.sh,
# which recreates .carry/): the mmseqs2 example data (Debian mmseqs2-examples: DB.fasta.gz and
# QUERY.fasta.gz, 6.7 MB), the CUDASW++4.0 source (git archive of github asbschmidt/CUDASW4 at
# commit 37a394c from $CUDASW4_GIT, a clone or the search tool's mirror; built there with nvcc,
# 1.2 MB) and parasail's PyPI wheel for Python 3.12 (15 MB; numpy is there already).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
carry="$root/.carry"
examples=/usr/share/doc/mmseqs2/example-data
git_dir=${CUDASW4_GIT:-/work/.mirror/asbschmidt+CUDASW4/repo}
mkdir -p "$carry/mmseqs2" "$carry/wheels"
[[ -f "$examples/DB.fasta.gz" ]] || apt-get install -y mmseqs2-examples >/dev/null
cp "$examples/DB.fasta.gz" "$examples/QUERY.fasta.gz" "$carry/mmseqs2/"
cp /usr/share/ncbi/data/BLOSUM62 "$carry/mmseqs2/"  # NCBI's table, for the parasail check
rm -rf "$carry/cudasw4" && mkdir -p "$carry/cudasw4"
git -C "$git_dir" archive --format=tar "${CUDASW4_COMMIT:-37a394c}" | tar -x -C "$carry/cudasw4"
if ! ls "$carry"/wheels/parasail-*.whl >/dev/null 2>&1; then
  py=python3; [[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
  "$py" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    -d "$carry/wheels" parasail==1.3.4
fi
du -sh "$carry"
