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


def test_readme_python_example(root, monkeypatch, capsys):
    """README's Python block runs as written, from the repository root, and prints y's head."""
    text = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    assert blocks, "README.md has no ```python block"
    monkeypatch.chdir(root)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.strip().startswith("[") and "2." in printed, printed
