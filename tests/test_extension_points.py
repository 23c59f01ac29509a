"""The declared extension points work as docs/architecture.md says.

A report section is one registered function; a tenth corporation is its data
and, for rules of its own, a room of the core with one registration per hook
(the recipe "Adding a corporation"), built and played here end to end.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from pu_sim.report import registry, reporting
from pu_sim.report.page import Page
from pu_sim.report.registry import ReportContext, Section

ROOT = Path(__file__).resolve().parents[1]


def test_a_registered_report_section_is_written(tmp_path, monkeypatch):
    import pu_sim

    run = pu_sim.run(8, out=tmp_path / "run", players=2, bots="random", paired=True)

    def longest(page: Page, ctx: ReportContext) -> int:
        rounds = int(ctx.games["rounds"].max())
        page.section(f"Longest game ({ctx.policies.primary})", f"{rounds} rounds.")
        return rounds

    sections = [*registry.SECTIONS, Section("longest", longest)]
    out = reporting.write_study_report([run.path], tmp_path / "r", sections=sections)
    readme = (out / "README.md").read_text()
    rounds = int(run.scan().collect()["rounds"].max())
    assert f"## Longest game (random)\n\n{rounds} rounds." in readme
    assert readme.index("## Longest game") > readme.index("## Headline findings")


TENTH = """
[[corporation]]
id = 9
key = "test_corp"
name = "Test Corp"
playable = true
"""

ROOM = """
# ==============================================================================
# Test Corp (tests/test_extension_points.py): every tracker scores 100 more.
# ==============================================================================

cdef inline int test_corp_track_medals(const Game_t* g, const Rules_t* R, int p,
                                       int t) noexcept nogil:
    return board_track_medals(g, R, p, t) + 100
"""


def _source_copy(dest: Path) -> Path:
    """The source tree (no build products), as a new corporation's author has it."""
    ignore = shutil.ignore_patterns("*.so", "_core.c", "*.html", "__pycache__",
                                    "_build_info.json")  # fmt: skip
    shutil.copytree(ROOT / "pu_sim", dest / "pu_sim", ignore=ignore)
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, dest / name)
    return dest


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path.name, old)
    path.write_text(text.replace(old, new, 1))


def _add_tenth_corporation(src: Path) -> None:
    """The recipe's steps 1-4 and 6: data, id, room, include, hook, playable."""
    data = src / "pu_sim" / "data" / "corporations.toml"
    text = data.read_text()  # its board: the symmetric side's, under a new id
    start = text.index("[[corporation]]\nid = 0\n")
    end = text.index("# Cosmos Inc. (id 1)")
    uc = text[start:end].rsplit("\n# ====", 1)[0]
    tenth = (
        uc.replace("id = 0", "id = 9", 1)
        .replace('key = "universal_coalition"', 'key = "test_corp"', 1)
        .replace('name = "Universal Coalition"', 'name = "Test Corp"', 1)
    )
    data.write_text(text + "\n" + tenth + "\n")
    defs = src / "pu_sim" / "core" / "engine" / "defs.pxi"
    _edit(defs, "    CORP_WORMHOLE = 8\n", "    CORP_WORMHOLE = 8\n    CORP_TEST = 9\n")
    (src / "pu_sim" / "core" / "corporations" / "test_corp.pxi").write_text(ROOM)
    _edit(src / "pu_sim" / "_core.pyx",
          'include "core/corporations/makeshift.pxi"\n',
          'include "core/corporations/makeshift.pxi"\n'
          'include "core/corporations/test_corp.pxi"\n')  # fmt: skip
    _edit(src / "pu_sim" / "core" / "corporations" / "hooks.pxi",
          "    return board_track_medals(g, R, p, t)\n",
          "    if g.pl[p].corp == CORP_TEST:\n"
          "        return test_corp_track_medals(g, R, p, t)\n"
          "    return board_track_medals(g, R, p, t)\n")  # fmt: skip


def test_a_tenth_corporation_from_data_and_a_room_plays(tmp_path):
    src = _source_copy(tmp_path / "src")
    _add_tenth_corporation(src)
    env = {**os.environ, "PU_SIM_DEBUG_CYTHON": "1"}  # -O0: a quick build
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                   cwd=src, env=env, check=True, capture_output=True)  # fmt: skip
    script = textwrap.dedent("""
        import polars as pl
        import pu_sim
        from pu_sim.rules import load_game_data
        data = load_game_data()
        assert len(data.corporations) == 10 and "test_corp" in data.playable_corporations
        games = pu_sim.simulate(40, players=3, corporations="random", bots="greedy",
                                planets="random", seed=5, n_jobs=1)
        assert (games["status"] == "ok").all()
        test = games.filter(pl.col("corporation") == "Test Corp")
        assert test.height > 0, "random draws the tenth corporation"
        assert (test["score_tracks"] >= 500).all(), "its room scores every tracker"
        others = games.filter(pl.col("corporation") != "Test Corp")
        assert (others["score_tracks"] < 500).all()
        print("ok", test.height)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=src, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("ok")
