"""The README's two commands are the ones CI runs and they name real entry points;
its figures are the committed reports'."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```bash\n(python3 -m venv[^\n]+)\n```", text)


def test_readme_shows_an_install_and_a_test_command():
    install, tests = commands()[:2]
    assert "pip install -e ." in install and install.endswith("pu-sim study")
    assert "pip install -e '.[test]'" in tests and tests.endswith("pytest -n auto")


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands()[1] in ci.splitlines()


def test_the_main_job_entry_point_exists(tmp_path):
    text = (ROOT / "pyproject.toml").read_text()
    assert 'pu-sim = "pu_sim.cli:main"' in text
    from pu_sim.cli import main

    assert main(["simulate", "--games", "3", "--players", "2"]) == 0
    assert main(["simulate", "--corporations", "nope"]) == 2
    assert main(["study", "--smoke", "--jobs", "1", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "main" / "smoke" / "README.md").is_file()


def test_the_readme_is_for_users_and_short():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 300


def test_the_readme_links_point_at_files_that_exist():
    text = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(((?:docs|reports|experiments)/[^)#]+)\)", text)
    assert links
    for link in links:
        assert (ROOT / link).exists(), link


def test_the_docs_links_point_at_files_that_exist():
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for link in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", doc.read_text()):
            if not link.startswith(("http://", "https://", "mailto:")):
                assert (doc.parent / link).exists(), (doc.name, link)


def test_the_readme_states_policy_tds_solo_gap_as_the_committed_ladder_measured_it():
    """The README's figure for the third opinion's solo strength is the
    committed bot ladder's (random boards, paired), not one written by hand."""
    from pu_sim.simulation.manifest import read_report_manifest

    ladder = ROOT / "reports" / "bots" / "bot_ladder" / "8-games-seed-909"
    gap = read_report_manifest(ladder).results["policy_targets"]["solo_gap"]
    text = " ".join((ROOT / "README.md").read_text().split())
    assert gap < 0 and f"solo it scores {-gap:.1f} points below greedy_learned" in text
