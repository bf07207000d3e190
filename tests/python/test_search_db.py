"""lockstep.search on a prepared database (`lockstep makedb`, made by the CLI of the build tree,
LOCKSTEP_BUILD or build/): the same hits as from the FASTA it was made from; a corrupt file is
an InputError naming it."""
import os
import subprocess

import numpy as np
import pytest

import lockstep

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.path.join(os.environ.get("LOCKSTEP_BUILD", os.path.join(ROOT, "build")), "lockstep")


def test_prepared_database_gives_the_fastas_hits(tmp_path, rng):
    if not os.access(CLI, os.X_OK):
        pytest.skip(f"no lockstep CLI at {CLI} (set LOCKSTEP_BUILD)")
    aa = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    seqs = ["".join(rng.choice(aa, size=int(rng.integers(20, 200)))) for _ in range(40)]
    fa, db = tmp_path / "db.fa", tmp_path / "db.lsdb"
    fa.write_text("".join(f">s{i} x\n{s}\n" for i, s in enumerate(seqs)))
    subprocess.run([CLI, "makedb", str(fa), str(db)], check=True, capture_output=True)
    queries = [seqs[3][10:80], seqs[17]]
    from_fasta = lockstep.search(queries, str(fa), top=4, algorithm="cpu")
    from_db = lockstep.search(queries, str(db), top=4, algorithm="cpu")
    np.testing.assert_array_equal(from_fasta, from_db)
    assert from_db["subject_id"][0] == "s3"
    bad = bytearray(db.read_bytes())
    bad[-2] ^= 1
    (tmp_path / "bad.lsdb").write_bytes(bytes(bad))
    with pytest.raises(lockstep.InputError, match="bad.lsdb: corrupt lockstep database"):
        lockstep.search(queries, str(tmp_path / "bad.lsdb"), algorithm="cpu")
