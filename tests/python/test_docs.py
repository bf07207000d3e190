"""docs/python.md's examples run as doctests, from the repository root (the paths in them)."""
import doctest
import os

import pytest


def test_python_page_examples(root, monkeypatch):
    page = os.path.join(root, "docs", "python.md")
    if not os.path.exists(page):
        pytest.skip("no docs/python.md")
    monkeypatch.chdir(root)
    result = doctest.testfile(page, module_relative=False, report=True,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 20
    assert result.failed == 0
