"""Every command the README and docs/ show runs, on small counts, as written.

The command lines are read from the documents' ``bash`` blocks, so a renamed
flag or subcommand fails here.  Counts shrink (``--games`` to a few games, a
search file's budget to one small round), paths land in a temporary folder,
and a study runs with ``--smoke``; nothing else about a line changes.  The
lines that cannot run here say why in :data:`NOT_HERE`.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from pu_sim.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

NOT_HERE = {
    "--scheduler tcp://HOST:8786": "needs a Dask cluster (tests/test_dask.py plays "
    "one on a local cluster)",
}
"""Command fragments that cannot run in a test, and why."""

GAMES = "20"  # the README replays game 17 of a run


def documented_lines() -> list[tuple[str, str]]:
    """(document, command) for every ``pu-sim`` line of a ``bash`` block."""
    found = []
    for doc in DOCUMENTS:
        for block in re.findall(r"```bash\n(.*?)```", doc.read_text(), flags=re.S):
            for line in block.replace("\\\n", " ").splitlines():
                command = line.split("#", 1)[0].strip()
                if command.startswith("pu-sim "):
                    found.append((doc.name, " ".join(command.split())))
    return found


def make_files(folder: Path) -> None:
    """The files the documents' commands name, taken from the documents."""
    text = (ROOT / "docs" / "variants.md").read_text()
    blocks = re.findall(r"```toml\n(.*?)```", text, flags=re.S)
    variant = next(b for b in blocks if 'name = "cosmos-water-12"' in b)
    (folder / "cosmos.toml").write_text(variant)
    search = next(b for b in blocks if b.startswith("[search]"))
    small = {"candidates": 2, "first_games": 8, "eta": 2, "confirm_games": 8,
             "best": 1}  # fmt: skip
    for key, value in small.items():
        search = re.sub(rf"(?m)^{key} = \d+", f"{key} = {value}", search)
    (folder / "search.toml").write_text(search)


def shrunk(command: str) -> list[str]:
    """The command's arguments with small counts."""
    args = shlex.split(command)[1:]
    for i, arg in enumerate(args[:-1]):
        if arg == "--games":
            args[i + 1] = GAMES
    if args[0] == "study":
        args += ["--smoke", "--jobs", "1", "--out", "runs"]
    return args


def run(args: list[str]) -> int:
    """The CLI's exit code (argparse exits by itself on an unknown flag)."""
    try:
        return main(args)
    except SystemExit as stop:
        return int(stop.code or 0)


def test_the_documents_show_commands_of_every_subcommand():
    lines = [c for _, c in documented_lines()]
    for sub in ("simulate", "play", "report", "list", "compare", "balance", "study"):
        assert any(c.startswith(f"pu-sim {sub}") for c in lines), sub


def test_every_documented_command_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    make_files(tmp_path)
    lines = [(doc, c) for doc, c in documented_lines()
             if not any(f in c for f in NOT_HERE)]  # fmt: skip
    # a line that reads a run folder runs after the line that writes it
    lines.sort(key=lambda dc: not ("--out" in dc[1] and "--run " not in dc[1]))
    failed = []
    for doc, command in lines:
        code = run(shrunk(command))
        err = capsys.readouterr().err
        if code != 0:
            failed.append(f"{doc}: {command} -> exit {code}: {err.strip()[-300:]}")
    assert not failed, "\n".join(failed)


def test_a_broken_documented_flag_would_fail(tmp_path, monkeypatch, capsys):
    """The runner reports a line the CLI refuses (or the test above could pass
    with a stale document)."""
    monkeypatch.chdir(tmp_path)
    assert run(shrunk("pu-sim simulate --players 4 --no-such-flag")) == 2


@pytest.mark.parametrize("target", ["dev", "build", "test", "test-all", "lint",
                                    "bench", "annotate", "golden", "mutants"])  # fmt: skip
def test_every_documented_make_target_exists(target):
    makefile = (ROOT / "Makefile").read_text()
    assert f"make {target}" in (ROOT / "README.md").read_text()
    assert re.search(rf"(?m)^{re.escape(target)}:", makefile), target


def test_every_python_snippet_of_the_docs_runs(tmp_path, monkeypatch):
    """docs/*.md's ``python`` blocks, each document's in order in one namespace
    (``pu_sim`` imported), with game counts of 1,000 or more cut to 20."""
    import pu_sim

    monkeypatch.chdir(tmp_path)
    make_files(tmp_path)
    ran = 0
    for doc in DOCUMENTS[1:]:
        namespace = {"pu_sim": pu_sim}
        for block in re.findall(r"```python\n(.*?)```", doc.read_text(), flags=re.S):
            code = re.sub(r"(?m)^(\s*|.*\()(\d{4,})(,|\))", r"\g<1>20\3", block)
            assert code != block or "simulate" not in block, doc.name
            exec(compile(code, str(doc), "exec"), namespace)
            ran += 1
    assert ran >= 3
