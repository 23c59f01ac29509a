"""Every experiment script and the main study run end to end with --smoke."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from experiment_scripts import EXPERIMENTS, load

from pu_sim import bots
from pu_sim.bots import fitted
from pu_sim.lab import ladder
from pu_sim.simulation.manifest import read_report_manifest
from pu_sim.simulation.plan import Plan
from pu_sim.simulation.seeds import DEFAULT_SEED
from pu_sim.studies import harness
from pu_sim.studies import main as study

STUDIES = ["corp_planet_balance", "solo_target_calibration", "seat_order"]
"""Designer-facing studies (experiments/)."""
BOT_STUDIES = [
    "bot_comparison",
    "tune_greedy",
    "bot_ladder",
    "objective_rates",
    "families",
]
"""Bot-development studies (experiments/bots/) whose reports have figures."""
SCRIPTS = [*STUDIES, *(f"bots/{name}" for name in BOT_STUDIES)]


@pytest.mark.parametrize("name", SCRIPTS)
def test_experiment_smoke_run_writes_a_report(name, tmp_path):
    module = load(name)
    tables = ["--write", "--tables", str(tmp_path / "fitted")]
    extra = tables if name == "bots/objective_rates" else []
    assert module.main(["--smoke", "--out", str(tmp_path), "--jobs", "1", *extra]) == 0
    root = tmp_path / "bots" if name.startswith("bots/") else tmp_path
    report = root / module.STUDY / "smoke"
    readme = (report / "README.md").read_text()
    assert "## Headline findings" in readme and "## Runs and reproducibility" in readme
    assert list((report / "figures").glob("*.png"))
    manifests = list(report.glob("runs/*/manifest.json"))
    assert manifests and all((m.parent / "data").is_dir() for m in manifests)
    manifest = read_report_manifest(report).to_json()  # how to play them again
    assert manifest["command"].startswith(f"python experiments/{name}.py ")
    assert "--smoke" in manifest["command"].split()
    if name.startswith("bots/"):  # one manifest shape for every bot report
        assert manifest["study"] == module.STUDY and manifest["results"]
        assert manifest["command"].endswith("--smoke")
        assert len(manifest["runs"]) == len(manifests)
    if name in ("seat_order", "bots/bot_comparison"):  # seats draw every board
        for m in manifests:
            config = json.loads(m.read_text())["config"]
            assert set(config["corporations"]) == set(config["planets"]) == {"random"}
    if name == "bots/bot_ladder":  # the learned bot and the policy against targets
        assert "**The learned bot against its targets** (greedy_learned" in readme
        assert (
            "**The policy of another family against its targets** (policy_td, "
            "against greedy_learned): solo "
        ) in readme
        policy = manifest["results"]["policy_targets"]  # solo on random boards
        assert policy["solo_games"] == 4 and "solo on random boards " in readme
        assert policy["solo_gap"] == pytest.approx(
            policy["solo_mean"] - policy["learned_mean"]
        )
        runs = [
            json.loads(
                (report / "runs" / f"policy-solo-{b}" / "manifest.json").read_text()
            )
            for b in ("policy_td", "greedy_learned")
        ]
        assert runs[0]["seed"] == runs[1]["seed"]  # paired: the same deals
        for m in runs:
            assert set(m["config"]["corporations"]) == {"random"}
            assert set(m["config"]["planets"]) == {"random"}
        roll = bots.PRESETS["policy_td"]
        assert (f"at each solo choice (a rover's or lifepod's steps aside) its best "
                f"{roll['roll_width']:g} moves (a placement: each tile's best "
                f"{roll['roll_tile_width']:g}) each "
                f"judged by {roll['roll_redeals']:g}, the best "
                f"{roll['roll_finalists']:g} of them by "
                f"{roll['roll_redeals'] + roll['roll_more']:g} games it plays on until "
                f"{roll['roll_horizon']:g} more rounds have begun") in readme  # fmt: skip
    if extra:  # the setup discard's table, written where told
        rates = fitted.load_table("objective_rate", tmp_path / "fitted")["rate"]
        assert rates.shape == (28,) and 0 <= rates.min() <= rates.max() <= 1


def test_every_script_has_a_frozen_config_and_main():
    for name in SCRIPTS:
        module = load(name)
        config = module.Config()
        with pytest.raises(AttributeError):
            config.n_games = 1  # frozen
        assert callable(module.main)


def scripts() -> list[Path]:
    return sorted(EXPERIMENTS.rglob("*.py"))


def test_bot_scripts_live_apart_from_the_designer_studies():
    names = {p.relative_to(EXPERIMENTS).as_posix() for p in scripts()}
    assert {"benchmark.py", *(f"{s}.py" for s in STUDIES)} <= names
    bots_ = {n for n in names if n.startswith("bots/")}
    mutation = {n for n in names if n.startswith("mutation/")}  # make mutants
    assert mutation == {"mutation/core_mutants.py", "mutation/python_mutants.py",
                        "mutation/report.py"}  # fmt: skip
    assert len(bots_) == 20 and names - bots_ - mutation == {"benchmark.py"} | {
        f"{s}.py" for s in STUDIES
    }


@pytest.mark.parametrize("path", scripts(), ids=lambda p: p.stem)
def test_scripts_are_thin_and_use_only_the_public_api(path):
    """No script reaches into the compiled core; a bot script's main() is a few
    dozen lines over pu_sim.lab."""
    text = path.read_text()
    for private in ("pu_sim._core", "import _core", "import_core", "_build_check"):
        assert private not in text, (path.name, private)
    if path.parent.name == "bots":
        tree = ast.parse(text)
        (main,) = [f for f in tree.body if isinstance(f, ast.FunctionDef)
                   and f.name == "main"]  # fmt: skip
        assert main.end_lineno - main.lineno < 40, path.name
        assert "pu_sim.lab" in text


def test_main_study_smoke(tmp_path):
    argv = ["--smoke", "--out", str(tmp_path), "--jobs", "1"]
    assert study.main(argv) == 0
    readme = (tmp_path / "main" / "smoke" / "README.md").read_text()
    for section in ("## Verdicts at a glance (greedy_tuned, checked by greedy_learned)",
                    "## Solo scores", "## Solo target calibration (greedy_tuned)",
                    "## Seat order and the first commander (greedy_tuned, "
                    "greedy_learned, policy_td)",
                    "third opinion: win - 1/n, pp (policy_td)",
                    "**Third opinion at 3 players** (policy_td",
                    "## Skill depth in solo (random < greedy < greedy_tuned < "
                    "greedy_learned)",
                    "## Skill depth: mixed tables (greedy_tuned and greedy)",
                    "## Game feel and length (greedy_tuned)",
                    "## Corporation x planet cells (greedy_tuned)"):  # fmt: skip
        assert section in readme
    assert readme.index("## Verdicts at a glance") < readme.index("## Headline")
    assert "**Lead changes" in readme  # the primary's runs keep round scores
    manifest = read_report_manifest(tmp_path / "main" / "smoke").to_json()
    assert manifest["study"] == "main" and manifest["config"]["n_games"] == 12
    assert manifest["config"]["bot"]["label"] == "greedy_tuned"
    assert manifest["command"].startswith("python -m pu_sim.studies.main --games 12 ")
    assert manifest["command"].endswith(" --smoke")
    assert len(manifest["runs"]) == len(study._runs(study.Config(n_games=12,
        **{k: v for k, v in study.SMOKE.items() if k != "n_games"})))  # fmt: skip
    assert all(r.startswith("runs/") for r in manifest["runs"])
    assert not (tmp_path / "main" / "smoke" / "study.json").exists()


def test_study_help_states_the_default_size_and_seed(capsys):
    from pu_sim.cli.main import main as cli_main

    with pytest.raises(SystemExit):
        cli_main(["study", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"per player count ({study.Config().n_games})" in text
    assert f"root seed ({study.Config().seed})" in text


def test_every_run_of_the_study_splits_into_batches_for_every_worker():
    """One default batch per run played a 225-game solo run on one core."""
    assert harness.study_batch(Plan.of(bots="search"), 1000) == 8
    assert harness.study_batch(Plan.of(players=2, bots=["greedy", "random"]),
                               10**6) == 2000  # fmt: skip
    for _, _, kwargs in study._runs(study.Config()):
        plan = Plan.of(**kwargs["table"])
        batch = harness.study_batch(plan, kwargs["n_games"])
        assert kwargs["n_games"] >= 2 * batch or kwargs["n_games"] <= 25


def test_shared_flags(tmp_path):
    def start(argv, smoke=None):
        return harness.start("main", study.Config(), argv, doc="x", smoke=smoke or {})

    run = start(["--games", "5", "--seed", "3", "--out", str(tmp_path)])
    assert (run.config.n_games, run.config.seed, run.jobs, run.smoke) == (
        5, 3, -1, False)  # fmt: skip
    assert run.folder == tmp_path / "main" / "5-games-seed-3"
    assert start(["--smoke"], smoke={"n_games": 7}).config.n_games == 7
    assert start(["--smoke", "--games", "9"], smoke={"n_games": 7}).config.n_games == 9
    for bad in (["--games", "0"], ["--unknown"], ["--seed", "-1"], ["--jobs", "0"]):
        with pytest.raises(SystemExit):
            start(bad)
    assert start([]).config.seed == DEFAULT_SEED


def test_bot_ladder_seats_every_subset_in_every_seat():
    bots = load("bots/bot_ladder").Config().bots
    assert [b.label for b in bots] == [
        "random", "greedy", "policy_td", "greedy_tuned", "search-8", "greedy_learned",
        "search-64"]  # fmt: skip
    assert bots[4].params["line_complete"] == bots[3].params["line_complete"] != 1.0
    assert bots[5].params["ntuple"] > 0 and bots[3].params["ntuple"] == 0
    assert bots[2].kind == "policy"
    seatings = ladder.seatings(bots, 3)
    assert len(seatings) == 105  # C(7, 3) subsets x 3 seat orders
    for bot in bots:  # every bot in every seat equally often
        seats = [[s.label for s in seating].index(bot.label)
                 for seating in seatings if bot in seating]  # fmt: skip
        assert sorted(seats) == sorted([0, 1, 2] * 15)
    assert ladder.batch(12, 2) == 6 and ladder.batch(1, 2) == 1
    # -1 (the scripts' default): every core, so the games still split over them
    assert ladder.batch(12, -1) == -(-12 // os.cpu_count())


def test_ladder_share_ahead_clusters_a_setups_games():
    # Setup 0: L ahead of both T in run a, behind both in run b, tied with one T
    # and ahead of the other in run c: (1 + 0 + 0.75) / 3.  Setup 1: L ahead of
    # one of the two T in each run: 0.5.  Interval over the 2 setups, not 6 games.
    rows = {("a", 0): [1, 2, 3], ("b", 0): [3, 1, 2], ("c", 0): [1, 1, 3],
            ("a", 1): [2, 1, 3], ("b", 1): [2, 3, 1], ("c", 1): [2, 1, 3]}  # fmt: skip
    games = pl.DataFrame(
        [{"run": r, "game_id": g, "bot": b, "rank": k}
         for (r, g), ranks in rows.items()
         for b, k in zip(["L", "T", "T"], ranks, strict=True)]
    )  # fmt: skip
    got = ladder.share_ahead(games, "L", "T")
    per_setup = np.array([1.75 / 3, 0.5])
    assert got["setups"] == 2 and got["games"] == 6
    assert got["share"] == pytest.approx(per_setup.mean())
    half = 12.706 * per_setup.std(ddof=1) / np.sqrt(2)  # t(0.975, 1 df)
    assert got["upper"] - got["share"] == pytest.approx(half, rel=1e-3)
    assert ladder.target_verdict(0.62, 0.60, 0.60) == "met"
    assert ladder.target_verdict(3.1, 2.9, 3.0).startswith("met at the estimate")
    assert ladder.target_verdict(2.9, 2.7, 3.0) == "missed"


def test_a_study_run_splits_into_batches_without_changing_it(tmp_path):
    plan = Plan.of(seed=5)
    one = harness.play_run(tmp_path / "one", plan, 3, study="t", jobs=1, batch_size=1)
    whole = harness.play_run(tmp_path / "whole", plan, 3, study="t", jobs=1)
    assert len(list((one / "data").glob("part-*.parquet"))) == 3
    assert len(list((whole / "data").glob("part-*.parquet"))) == 1
    from pu_sim.simulation.runner import scan_run

    scores = [
        scan_run(r).sort("game_id").select("score").collect() for r in (one, whole)
    ]
    assert scores[0].equals(scores[1])


def test_a_recorded_command_replays_a_built_in_bot_that_is_no_parseable_name(tmp_path):
    """The solo calibration's default search bot is labelled search-8-tuned, which
    bots.parse refuses; its recorded command must still start the same study."""
    solo = load("solo_target_calibration")
    first = harness.start(
        "solo_target_calibration", solo.Config(), ["--out", str(tmp_path)], doc="x",
        smoke={},
    )  # fmt: skip
    assert "--search search-8-tuned" in first.command
    argv = [*first.command.split()[2:], "--out", str(tmp_path)]
    again = harness.start("solo_target_calibration", solo.Config(), argv, doc="x",
                          smoke={})  # fmt: skip
    assert again.config == first.config and again.config.search == solo.SEARCH
    with pytest.raises(SystemExit):
        harness.start("solo_target_calibration", solo.Config(),
                      ["--search", "search-9-tuned"], doc="x", smoke={})  # fmt: skip


def test_a_rebuilt_ladder_states_the_time_its_runs_took(tmp_path):
    """Run again over finished runs, the ladder plays nothing and its report
    states the simulation time of the runs (their manifests' sessions), not
    the seconds the rebuild took."""
    from pu_sim.report.runs import run_info

    module = load("bots/bot_ladder")
    args = ["--smoke", "--out", str(tmp_path), "--jobs", "1"]
    assert module.main(args) == 0
    report = tmp_path / "bots" / "bot_ladder" / "smoke"
    first = read_report_manifest(report).results["simulation_wall_s"]
    runs = [p.parent for p in (report / "runs").glob("*/manifest.json")]
    assert first == pytest.approx(sum(run_info(r).wall_time_s for r in runs))
    assert module.main(args) == 0
    assert read_report_manifest(report).results["simulation_wall_s"] == first > 0
