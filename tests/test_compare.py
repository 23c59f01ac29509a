"""Paired comparisons of variants: known answers, the report and the command line.

Known answers: a variant identical to the published data changes nothing
(every game is the same, so every change is exactly zero); a variant that
strictly improves one corporation (every medal of its civ and water tracks
worth more) raises its win rate and score by a significant amount.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

import pu_sim
from pu_sim.analysis import stats
from pu_sim.cli.main import main as cli_main
from pu_sim.rules import Variant
from pu_sim.simulation.manifest import read_report_manifest
from pu_sim.variants.compare import Comparison
from pu_sim.variants.effects import COLUMNS

STRICTLY_BETTER = """
[variant]
name = "cosmos-plus3"
description = "Cosmos Inc.: every medal of its civ and water tracks is worth 3 more"
[corporation.cosmos_inc.tracks]
civ = { 2 = "medal:4", 5 = "medal:5", 9 = "medal:6", 15 = "medal:8" }
water = { 2 = "medal:4", 4 = "medal:5", 6 = "medal:6", 8 = "medal:7", 10 = "medal:8", 13 = "medal:10", 15 = "medal:13" }
"""

DUEL = {"players": 2, "corporations": ["cosmos_inc", "universal_coalition"],
        "bots": "greedy", "paired": True}  # fmt: skip


@pytest.fixture(scope="module")
def better() -> Comparison:
    variant = Variant.from_text(STRICTLY_BETTER, "better.toml")
    return pu_sim.compare(variant, 160, seed=3, n_jobs=2, **DUEL)  # type: ignore[arg-type]


def _row(effects: pl.DataFrame, name: str, metric: str) -> dict[str, object]:
    (row,) = effects.filter(name=name, metric=metric).to_dicts()
    return row


def test_strictly_better_variant_raises_win_rate_and_score(better: Comparison) -> None:
    effects = better.effects
    assert effects.columns == list(COLUMNS)
    win = _row(effects, "Cosmos Inc.", "win_pp")
    score = _row(effects, "Cosmos Inc.", "score")
    assert win["significant"] and win["lower"] > 5.0  # type: ignore[operator]
    assert score["significant"] and score["lower"] > 2.0  # type: ignore[operator]
    rival = _row(effects, "Universal Coalition", "win_pp")
    assert rival["change"] == pytest.approx(-win["change"])  # type: ignore[operator]
    # one correction over every row of the table, not per metric
    expected = stats.adjust(effects["p_value"].to_numpy(), "holm")
    assert effects["p_adjusted"].to_numpy() == pytest.approx(expected, nan_ok=True)


def test_identity_variant_changes_nothing() -> None:
    identity = Variant.from_text("[variant]\nname = 'same'\n", "same.toml")
    result = pu_sim.compare(identity, 8, seed=3, n_jobs=1, **DUEL)  # type: ignore[arg-type]
    assert (result.effects["change"] == 0.0).all()
    assert not result.effects["significant"].any()
    published, same = (result.games[a] for a in ("published", "same"))
    assert isinstance(published, pl.DataFrame) and published.equals(same)


def test_report_folder_and_resume(tmp_path: Path) -> None:
    variant = Variant.from_text(STRICTLY_BETTER, "better.toml")
    out = tmp_path / "cmp"
    first = pu_sim.compare(variant, 8, seed=3, n_jobs=1, out=out, **DUEL)  # type: ignore[arg-type]
    readme = (out / "README.md").read_text()
    assert "## cosmos-plus3" in readme and variant.short_digest in readme
    assert "track_fit" in readme  # the bots' published knowledge is named
    assert "| corporation | Cosmos Inc. |" in readme
    manifest = read_report_manifest(out)
    assert manifest.study == "compare" and len(manifest.runs) == 2
    assert manifest.results["arms"]["published"] is None
    assert manifest.results["arms"]["cosmos-plus3"]["files"][0]["text"] == (
        STRICTLY_BETTER
    )
    assert (out / "figures" / "win-cosmos-plus3-2p.png").is_file()
    assert pl.read_csv(out / "effects.csv").height == first.effects.height
    again = pu_sim.compare(variant, 8, seed=3, n_jobs=1, out=out, **DUEL)  # type: ignore[arg-type]
    assert again.effects.equals(first.effects)  # resumed from the run folders
    manifest = json.loads((out / "runs" / "cosmos-plus3" / "manifest.json").read_text())
    assert manifest["sessions"][-1]["games_played"] == 0


def test_two_variants_of_one_name_get_two_arms() -> None:
    a = Variant.from_text(STRICTLY_BETTER, "a.toml")
    b = Variant.from_text(STRICTLY_BETTER.replace("medal:13", "medal:12"), "b.toml")
    result = pu_sim.compare([a, b], 4, seed=1, n_jobs=1, **DUEL)  # type: ignore[arg-type]
    assert list(result.arms) == ["published", "cosmos-plus3",
                                 f"cosmos-plus3-{b.short_digest}"]  # fmt: skip
    with pytest.raises(ValueError, match="given twice"):
        pu_sim.compare([a, a], 4, seed=1, n_jobs=1, **DUEL)  # type: ignore[arg-type]


def test_cli_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "better.toml"
    path.write_text(STRICTLY_BETTER)
    code = cli_main(["compare", "--games", "4", "--players", "2", "--paired",
                     "--corporations", "cosmos_inc,universal_coalition",
                     "--variant", str(path), "--option-variant",
                     "civ_pick_timing=on_milestone", "--jobs", "1",
                     "--out", str(tmp_path / "cmp"), "--runs", str(tmp_path / "runs"),
                     "--no-progress"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "cosmos-plus3 against published, 2 player(s):" in out
    assert "civ_pick_timing-on_milestone against published" in out
    assert (tmp_path / "cmp" / "README.md").is_file()
    arms = sorted(p.name for p in (tmp_path / "runs").iterdir())  # --runs: apart
    assert arms == ["civ_pick_timing-on_milestone", "cosmos-plus3", "published"]
    assert not (tmp_path / "cmp" / "runs").exists()


def test_cli_compare_needs_an_arm(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["compare", "--games", "4"]) == 2
    assert "at least one --variant" in capsys.readouterr().err


def test_what_a_variant_changes_and_what_the_bots_know() -> None:
    from pu_sim.variants.knowledge import Change, changes, published_knowledge

    variant = Variant.from_text(
        STRICTLY_BETTER + "\n[objective.40.private]\nwin_medals = 4\n"
        "[options]\nciv_pick_timing = 'on_milestone'\n",
        "mixed.toml",
    )
    found = changes(variant)
    assert Change("corporation", "cosmos_inc", ("tracks",)) in found
    assert Change("objective", "40", ("private",)) in found
    assert Change("rule options", "", ("civ_pick_timing",)) in found
    knowledge = " | ".join(published_knowledge(variant))
    assert "track_fit" in knowledge and "cosmos_inc" in knowledge
    assert "objective_chance, objective_rate" in knowledge and "40" in knowledge
    assert "rule options" in knowledge
    identity = Variant.from_text("[variant]\nname = 'same'\n", "same.toml")
    assert changes(identity) == [] and published_knowledge(identity) == []
