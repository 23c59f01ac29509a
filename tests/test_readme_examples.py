"""The README's Python examples run and print what the README shows."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def examples() -> list[str]:
    return re.findall(r"```pycon\n(.*?)```", README.read_text(), re.S)


def test_the_readme_has_python_examples():
    assert len(examples()) >= 2


def test_the_readme_examples_print_what_they_show(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing an example writes lands in the checkout
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    globs: dict[str, object] = {}
    for i, text in enumerate(examples()):
        test = parser.get_doctest(text, globs, f"README example {i}", str(README), 0)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 8
    assert result.failed == 0
