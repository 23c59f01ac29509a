"""Balance search: the declared space, the objective, successive halving, resumption.

Checked on a tiny space: the rounds shrink the candidates by eta and grow the
games by eta, the last survivor is the best patch, written as a variant file
and confirmed held out; the published values must be what the data holds; a
resumed search plays nothing again and decides the same.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pu_sim.cli.main import main as cli_main
from pu_sim.rules import DataError, Variant
from pu_sim.simulation.manifest import read_manifest, read_report_manifest
from pu_sim.simulation.runfolder import find_run_folders
from pu_sim.variants.balance import balance, read_space
from pu_sim.variants.balance.objectives import check_objective, evaluate
from pu_sim.variants.balance.space import variant_text

SPACE = """
[search]
name = "duel"
description = "Cosmos should score as much as its rival"

[table]
players = 2
corporations = ["cosmos_inc", "universal_coalition"]
bots = "greedy"
paired = true

[objective]
kind = "score_gap"
corporations = ["cosmos_inc"]

[budget]
candidates = 3
first_games = 8
eta = 3
confirm_games = 8
best = 1
seed = 5

[[change]]
name = "water_top"
at = "corporation.cosmos_inc.tracks.water.15"
template = "medal:{}"
published = 10
values = [1, 10, 20]

[[change]]
name = "civ_top"
at = "corporation.cosmos_inc.tracks.civ.15"
template = "medal:{}"
published = 5
values = [5, 20]
"""


def _space(tmp_path: Path, text: str = SPACE) -> Path:
    path = tmp_path / "space.toml"
    path.write_text(text)
    return path


def test_variant_text_addresses_list_items() -> None:
    text = variant_text("x", "y", {"corporation.cosmos_inc.tracks.water.15": "medal:12",
                                   "corporation.cosmos_inc.rovers": 1})  # fmt: skip
    variant = Variant.from_text(text, "x.toml")
    cosmos = next(c for c in variant.game_data().corporations if c.key == "cosmos_inc")
    assert cosmos.tracks["water"].spaces[15].medal == 12


def test_space_candidates_and_sizes(tmp_path: Path) -> None:
    space = read_space(_space(tmp_path))
    candidates = space.candidates()
    assert candidates[0].variant is None and candidates[0].size == 0
    assert len(candidates) == 1 + 3  # the published game and a seeded sample of 3
    assert len({c.key for c in candidates}) == 4
    big = space.candidate((20, 20))
    assert big.size == 10 + 15 and big.variant is not None


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("published = 10", "published = 11", "the published value must be one of"),
        ("values = [1, 10, 20]", "values = [0, 10, 11]\npublished_x = 1",
         "unknown key 'published_x'"),
        ("values = [1, 10, 20]", "values = [10, -4]", "tracks.water[15]"),
        ('at = "corporation.cosmos_inc.tracks.water.15"',
         'at = "corporation.cosmos.tracks.water.15"', "unknown corporation 'cosmos'"),
        ("eta = 3", "eta = 1", "[budget.eta]: must be at least 2"),
        ('at = "corporation.cosmos_inc.tracks.civ.15"',
         'at = "corporation.cosmos_inc.tracks.water.15"',
         "'water_top' and 'civ_top' both set corporation.cosmos_inc.tracks.water.15"),
    ],
)  # fmt: skip
def test_bad_spaces_are_one_line(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    with pytest.raises(DataError) as info:
        read_space(_space(tmp_path, SPACE.replace(old, new, 1)))
    assert message in str(info.value) and "\n" not in str(info.value)


def test_published_value_is_checked_against_the_data(tmp_path: Path) -> None:
    text = SPACE.replace("published = 10", "published = 20")
    with pytest.raises(DataError, match="is not what the data holds"):
        read_space(_space(tmp_path, text))


def test_objectives() -> None:
    games = pl.DataFrame({
        "game_id": [0, 0, 1, 1], "n_players": [2] * 4, "rounds": [18] * 2 + [20] * 2,
        "corporation": ["Cosmos Inc.", "Universal Coalition"] * 2,
        "won": [True, False, True, False], "score": [60, 50, 70, 50],
    })  # fmt: skip
    assert evaluate(games, {"kind": "win_gap"}) == pytest.approx(50.0)
    assert evaluate(games, {"kind": "score_gap", "corporations": ["cosmos_inc"]}) == (
        pytest.approx(7.5)
    )
    assert evaluate(games, {"kind": "game_length", "rounds": 20}) == pytest.approx(1.0)
    with pytest.raises(DataError, match="'fairness' is not an objective"):
        check_objective({"kind": "fairness"}, "s.toml")


def test_search_races_writes_confirms_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "search"
    space = read_space(_space(tmp_path))
    first = balance(space, out=out, n_jobs=1, confirm=True)
    ranking = first.ranking()
    last = ranking.filter(pl.col("round") == ranking["round"].max())
    assert last.height == 1  # best = 1 survivor
    assert last["candidate"][0] == first.best[0].describe()
    rounds = ranking.group_by("round").agg(pl.col("games").first()).sort("round")
    assert rounds["games"].to_list() == [8, 24, 72]  # 4, 2, 1 candidates
    # the games are seeded, so which candidate wins is fixed: Cosmos trails its
    # rival and a patch raising its top medals wins (the published game winning
    # is test_a_space_that_changes_nothing_keeps_the_published_game)
    assert first.best[0].variant is not None, "the published game won: reseed"
    patch = next(iter(first.patches.values()))
    assert Variant.read(patch).files[0].text == first.best[0].variant.files[0].text
    assert (out / "confirm" / first.best[0].key / "README.md").is_file()
    readme = (out / "README.md").read_text()
    assert "## Rounds" in readme and "Held out" in readme
    again = balance(space, out=out, n_jobs=1, confirm=True)
    assert [c.key for c in again.best] == [c.key for c in first.best]
    runs = find_run_folders(out)
    assert runs
    for run in runs:  # resumed: nothing played again
        assert read_manifest(run).sessions[-1].games_played == 0
    report = read_report_manifest(out)
    assert report.study == "balance" and len(report.runs) == len(runs)


def test_a_space_that_changes_nothing_keeps_the_published_game(tmp_path: Path) -> None:
    # the changes move a corporation nobody plays: every candidate plays the
    # same games, ties go to the smallest change, and nothing is confirmed
    text = SPACE.replace("corporation.cosmos_inc.", "corporation.wormhole_corp.")
    out = tmp_path / "search"
    result = balance(read_space(_space(tmp_path, text)), out=out, n_jobs=1,
                     confirm=True)  # fmt: skip
    first_round = [e.value for e in result.evaluations if e.round == 0]
    assert len(first_round) == 4 and len(set(first_round)) == 1
    assert [c.variant for c in result.best] == [None]
    assert result.patches == {} and result.confirmations == {}
    assert not (out / "patches").exists() and not (out / "confirm").exists()
    readme = (out / "README.md").read_text()
    assert "(the published game)" in readme


def test_cli_balance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli_main(["balance", str(_space(tmp_path)), "--out", str(tmp_path / "o"),
                     "--jobs", "1", "--no-confirm"])  # fmt: skip
    assert code == 0
    assert "report:" in capsys.readouterr().out


def test_a_best_patch_that_misses_its_target_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = SPACE.replace('corporations = ["cosmos_inc"]\n',
                         'corporations = ["cosmos_inc"]\ntarget = 0.0\n')  # fmt: skip
    out = tmp_path / "o"
    code = cli_main(["balance", str(_space(tmp_path, text)), "--out", str(out),
                     "--jobs", "1", "--no-confirm"])  # fmt: skip
    assert code == 0
    err = capsys.readouterr().err
    assert "pu-sim: warning: no candidate met the target (0)" in err
    readme = (out / "README.md").read_text().splitlines()
    assert readme[2].startswith("**Warning:** No candidate met the target (0)")
    assert read_report_manifest(out).results["warnings"]


def test_a_patch_no_better_than_the_published_game_held_out_is_said() -> None:
    from types import SimpleNamespace

    from pu_sim.variants.balance.search import SearchResult, _judge

    def games(cosmos: float) -> pl.DataFrame:  # Cosmos' score against its rival's 50
        return pl.DataFrame({
            "game_id": [0, 0], "n_players": [2, 2], "won": [True, False],
            "corporation": ["Cosmos Inc.", "Universal Coalition"],
            "score": [cosmos, 50.0],
        })  # fmt: skip

    space = SimpleNamespace(objective={"kind": "score_gap",
                                       "corporations": ["cosmos_inc"]})  # fmt: skip
    candidate = SimpleNamespace(key="water_top-20", describe=lambda: "water_top=20")
    for patched, warned in ((60.0, True), (54.0, True), (50.0, False)):
        confirm = SimpleNamespace(baseline="published", games={
            "published": games(54.0), "water_top-20": games(patched)})  # fmt: skip
        result = SearchResult(
            space,
            None,
            (),
            (candidate,),  # type: ignore[arg-type]
            confirmations={"water_top-20": confirm},
        )  # type: ignore[dict-item]
        _judge(result, [(1.0, 10.0, "water_top-20", candidate)])  # type: ignore[list-item]
        assert bool(result.warnings) is warned, (patched, result.warnings)
        if warned:
            assert "does no better than the published game" in result.warnings[0]
        assert result.held_out["water_top-20"]["published"] == pytest.approx(2.0)
