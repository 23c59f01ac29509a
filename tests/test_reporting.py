"""Reports from run folders: computed findings, figures, tables, no simulation."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import polars as pl
import pytest
from synthetic_games import multiplayer_frame, solo_frame, write_run

from pu_sim.analysis.calibration import TargetTable
from pu_sim.report import markdown, reporting, runs
from pu_sim.report.sections import boards
from pu_sim.simulation import runfolder
from pu_sim.simulation.manifest import read_report_manifest
from pu_sim.simulation.plan import Plan
from pu_sim.studies.harness import play_run

PUBLISHED = TargetTable.published()


def no_simulation(monkeypatch):
    """Make any attempt to simulate fail loudly."""

    def refuse(*args, **kwargs):
        raise AssertionError("a report must never simulate")

    import pu_sim.simulation.in_memory

    monkeypatch.setattr(pu_sim.simulation.in_memory, "simulate", refuse)


def check_files(out):
    readme = (out / "README.md").read_text()
    figures = sorted((out / "figures").glob("*.png"))
    tables = sorted((out / "tables").glob("*.csv"))
    assert figures and tables
    for f in figures:
        assert f.stat().st_size > 5_000
        assert f"figures/{f.name}" in readme  # every figure is linked
    for t in tables:
        assert pl.read_csv(t).height > 0
    return readme


def test_balanced_corporations_report_no_difference(tmp_path, monkeypatch):
    no_simulation(monkeypatch)
    run = write_run(tmp_path / "runs" / "fair", multiplayer_frame(1500, 3, seed=1),
                    group_size=3)  # fmt: skip
    out = reporting.write_report(run, tmp_path / "report")
    readme = check_files(out)
    assert "no corporation's win rate differs from 1/n" in readme
    assert "no planet's win rate differs from 1/n" in readme
    assert "## Corporation x planet interaction" in readme
    assert (out / "tables" / "corporation_strength.csv").is_file()
    assert "**Paired design (corporations):**" in readme
    assert (out / "tables" / "corporation_paired.csv").is_file()
    manifest = read_report_manifest(out).to_json()  # one shape, every report
    assert manifest["runs"] == [run.resolve().as_posix()]  # not beneath: absolute
    assert manifest["config"] == {
        "fair": runfolder.read_manifest(run).to_json()["config"]
    }
    assert (manifest["study"], manifest["games"]) == ("synthetic", 1500)
    assert any(
        "no corporation's win rate" in h for h in manifest["results"]["headlines"]
    )
    assert "tables/corporation_paired.csv" in manifest["results"]["tables"]


def test_a_strong_corporation_is_named_in_the_headlines(tmp_path):
    df = multiplayer_frame(2000, 4, corp_effect={"Gamma Corp": 6.0}, seed=2)
    out = reporting.write_report(write_run(tmp_path / "strong", df), tmp_path / "r")
    readme = (out / "README.md").read_text()
    headline = next(
        line
        for line in readme.splitlines()
        if line.startswith("- **Corporations (greedy):**")
    )
    assert "Gamma Corp at 4p" in headline
    assert "after Holm correction" in headline
    strength = pl.read_csv(out / "tables" / "corporation_strength.csv")
    best = strength.sort("rating", descending=True)["corporation"][0]
    assert best == "Gamma Corp"


def test_first_player_advantage_is_reported(tmp_path):
    df = multiplayer_frame(3000, 2, seat_effect=[2.5, 0.0], seed=3)
    out = reporting.write_report(write_run(tmp_path / "seats", df), tmp_path / "r")
    readme = (out / "README.md").read_text()
    line = next(x for x in readme.splitlines() if x.startswith("- **Seats, 2 players"))
    marker = "declared on half of the setups and confirmed on the other: "
    assert line.split(marker)[1].startswith("seat 0 (first commander)")


def test_solo_report_has_the_calibration_section(tmp_path):
    def mean(g, o, r):
        return 40 + 1.0 * g - 0.1 * r

    run = write_run(tmp_path / "solo", solo_frame(6000, mean, seed=4))
    out = reporting.write_report(run, tmp_path / "r")
    readme = check_files(out)
    assert "## Solo target calibration" in readme
    assert "**Event colours, per card in place of an orange card:**" in readme
    # it measures the published table and points to the paired calibration
    # for the table to adopt: no in-sample recalibrated table
    assert "Recalibrated" not in readme and "recalibrated" not in readme
    assert "reports/solo_target_calibration/" in readme
    assert "## Seat order" not in readme  # no multiplayer games
    for name in ("solo_adjustments", "solo_deck_means", "solo_margin_ecdf"):
        assert (out / "figures" / f"{name}.png").is_file()
    assert not list((out / "tables").glob("solo_recalibrated*"))
    bands = pl.read_csv(out / "tables" / "solo_colour_bands.csv")
    assert set(bands["colour"].drop_nulls()) >= {"green", "orange", "red"}


def test_a_study_of_solo_and_multiplayer_runs_gets_both_sections(tmp_path):
    study = tmp_path / "study"
    write_run(study / "runs" / "solo", solo_frame(1500, lambda g, o, r: 40 + 0 * g))
    write_run(study / "runs" / "two", multiplayer_frame(300, 2, seed=5))
    found = runfolder.find_run_folders(study)
    assert [r.name for r in found] == ["solo", "two"]
    out = reporting.write_study_report(found, study, title="My study")
    readme = (out / "README.md").read_text()
    assert "## Solo scores" in readme and "## Seat order" in readme
    assert "| `solo` |" in readme and "| `two` |" in readme
    assert read_report_manifest(out).to_json()["runs"] == ["runs/solo", "runs/two"]
    # Rebuilding the study in place keeps its title (stored in its manifest).
    reporting.write_report(study, study)
    assert (study / "README.md").read_text().startswith("# My study\n")
    assert read_report_manifest(study).to_json()["title"] == "My study"


def test_default_out_dir_is_reports_study_run(tmp_path, monkeypatch):
    run = write_run(tmp_path / "somewhere" / "myrun", multiplayer_frame(100, 2),
                    study="mystudy")  # fmt: skip
    monkeypatch.chdir(tmp_path)
    out = reporting.write_report(run)
    assert out == tmp_path.joinpath("reports", "mystudy", "myrun").relative_to(tmp_path)
    assert (tmp_path / out / "README.md").is_file()


def test_a_runner_folder_is_read_with_its_metadata_and_versions(tmp_path):
    from pu_sim.rules import RULES_VERSION
    from pu_sim.simulation.runner import run

    folder = tmp_path / "r1"
    run(8, out=folder, players=2, bots="random", seed=123, paired=True,
        metadata={"study": "x", "name": "duel", "pairing": "p2"})  # fmt: skip
    info = runs.run_info(folder)
    assert (info.study, info.name, info.pairing) == ("x", "duel", "p2")
    assert (info.seed, info.players, info.n_games, info.group_size) == (
        123, 2, 8, 2,
    )  # fmt: skip
    assert (
        info.versions["git_revision"]
        == runfolder.read_manifest(folder).to_json()["git"]["revision"]
    )
    out = reporting.write_report(folder, tmp_path / "out")
    assert f"- rules version: {RULES_VERSION}" in (out / "README.md").read_text()


def test_anomalous_games_are_counted_and_left_out(tmp_path):
    df = multiplayer_frame(200, 2, seed=6).with_columns(
        status=pl.when(pl.col("game_id") < 10).then(pl.lit("turn_limit"))
        .otherwise(pl.lit("ok")).cast(pl.Enum(["ok", "turn_limit"]))
    )  # fmt: skip
    out = reporting.write_report(write_run(tmp_path / "a", df), tmp_path / "r")
    readme = (out / "README.md").read_text()
    assert "20 of 400 seat rows came from anomalous games" in readme
    seats = pl.read_csv(out / "tables" / "seat_effect.csv")
    assert seats["n"].to_list() == [190, 190]


def test_paired_runs_share_groups(tmp_path):
    a = write_run(tmp_path / "ab", multiplayer_frame(20, 2), pairing="p")
    b = write_run(tmp_path / "ba", multiplayer_frame(20, 2), pairing="p")
    c = write_run(tmp_path / "c", multiplayer_frame(20, 2))
    df = runs.load_runs([a, b, c])
    groups = df.group_by("run").agg(pl.col("group").min())
    mins = dict(groups.iter_rows())
    assert mins["ab"] == mins["ba"] != mins["c"]


def test_missing_data_and_folders_are_clear_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="no run folders"):
        reporting.write_report(tmp_path)
    empty = write_run(tmp_path / "empty", multiplayer_frame(10, 2))
    shutil.rmtree(empty / "data")  # a run's manifest without its games
    with pytest.raises(ValueError, match=r"games 0\.\.9 are missing \(10 of 10\)"):
        reporting.write_report(empty, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "manifest.json").write_text("{}")  # nor a report's
    with pytest.raises(ValueError, match=r"not a pu_sim\.report/1 report manifest"):
        reporting.write_report(tmp_path / "other", tmp_path / "out")
    assert reporting.main([str(tmp_path / "nothing-here")]) == 2


def test_a_study_run_goes_through_the_runner_and_resumes(tmp_path, monkeypatch):
    plan = Plan.of(players=2, bots=["greedy", "random"], seed=3)
    run = play_run(tmp_path / "study" / "duo", plan, 12, study="study", jobs=1,
                   pairing="x")  # fmt: skip
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["n_games"] == 12 and manifest["metadata"]["pairing"] == "x"
    assert manifest["status"] == "complete" and manifest["versions"]["rules"] >= 1
    parts = list((run / "data").glob("part-*.parquet"))
    assert parts
    # The same call again finds the run finished and plays nothing.
    before = parts[0].stat().st_mtime_ns
    play_run(run, plan, 12, study="study", jobs=1, pairing="x")
    assert parts[0].stat().st_mtime_ns == before
    assert len(json.loads((run / "manifest.json").read_text())["sessions"]) == 2
    no_simulation(monkeypatch)
    assert reporting.main([str(run), "--out", str(tmp_path / "rep")]) == 0
    readme = (tmp_path / "rep" / "README.md").read_text()
    assert "## Bots against each other" in readme


def test_two_solo_bots_get_a_calibration_robustness_check(tmp_path):
    def mean(g, o, r):
        return 40 + 1.0 * g - 0.4 * r

    study = tmp_path / "s"
    write_run(study / "a", solo_frame(4000, mean, seed=1, bot="alpha"))
    write_run(study / "b", solo_frame(4000, mean, seed=2, bot="beta"))
    out = reporting.write_report(study, tmp_path / "r")
    readme = (out / "README.md").read_text()
    assert "## Solo target calibration: alpha" in readme
    assert "## Solo target calibration: beta" in readme
    assert "**Calibration robustness (alpha vs beta):**" in readme
    assert (out / "tables" / "solo_colour_bands_alpha.csv").is_file()


def test_percentages_never_round_to_never_or_always():
    fmt = markdown.fmt
    assert fmt(0.0, "%") == "0.0%" and fmt(1.0, "%") == "100.0%"
    assert fmt(0.00002, "%") == "<0.01%"
    assert fmt(0.9999999, "%") == ">99.99%"
    assert fmt(0.0004, "%") == "0.04%"
    assert fmt(0.25, "%") == "25.0%"


def test_a_run_record_without_games_is_replayed_not_refused(tmp_path):
    from pu_sim.simulation.runfolder import RunFolderError

    def play(path, seed):
        plan = Plan.of(players=2, bots="random", seed=seed)
        return play_run(path, plan, 6, study="s", jobs=1)

    run = play(tmp_path / "r", 1)
    with pytest.raises(RunFolderError):  # games of another run: never overwritten
        play(run, 2)
    shutil.rmtree(run / "data")  # the games deleted, the manifest left
    play(run, 2)
    assert json.loads((run / "manifest.json").read_text())["config"]["seed"] == 2


def test_solo_difficulty_is_shown_per_corporation_and_calibration_pools_them(tmp_path):
    def easy(g, o, r):
        return 62 + 0 * g

    def hard(g, o, r):
        return 35 + 0 * g

    frames = [
        solo_frame(3000, easy, corporation="Easy Corp", seed=1),
        solo_frame(3000, hard, corporation="Hard Corp", seed=2),
    ]
    games = pl.concat(
        [f.with_columns(pl.col("corporation").cast(pl.String)) for f in frames]
    ).with_columns(game_id=pl.int_range(pl.len(), dtype=pl.UInt64))
    out = reporting.write_report(write_run(tmp_path / "r", games), tmp_path / "rep")
    readme = (out / "README.md").read_text()
    assert "## Solo difficulty by corporation and planet" in readme
    table = pl.read_csv(out / "tables" / "solo_by_corporation.csv")
    rates = dict(zip(table["corporation"], table["success"], strict=True))
    assert rates["Easy Corp"] > 0.4 > 0.05 > rates["Hard Corp"]
    # one pooled calibration, not one per corporation
    assert readme.count("## Solo target calibration") == 1


def test_a_bot_that_never_reaches_the_target_still_gets_a_report(tmp_path):
    def hopeless(g, o, r):
        return 10 + 0 * g

    run = write_run(tmp_path / "r", solo_frame(3000, hopeless, sd=2.0))
    readme = (reporting.write_report(run, tmp_path / "rep") / "README.md").read_text()
    assert "## Solo target calibration" in readme
    assert "| published, par |" in readme  # the base moved to where it succeeds


def test_a_headline_names_only_the_extreme_labels_when_many_differ(tmp_path):
    corps = [f"Corp {c}" for c in "ABCDEFGHIJ"]
    effect = {c: 4.0 * (i - 4.5) for i, c in enumerate(corps)}  # all far from fair
    df = multiplayer_frame(3000, 2, corporations=corps, corp_effect=effect, seed=3)
    out = reporting.write_report(write_run(tmp_path / "r", df), tmp_path / "rep")
    readme = (out / "README.md").read_text()
    line = next(
        x for x in readme.splitlines() if x.startswith("- **Corporations (greedy):**")
    )
    assert "most above: Corp J at 2p" in line and "most below: Corp A at 2p" in line
    named = [c for c in corps if f"{c} at 2p" in line]
    assert len(named) == boards.HEADLINE_ITEMS  # the rest only in the table
    table = pl.read_csv(out / "tables" / "corporation_balance.csv")
    assert table.filter(pl.col("significant")).height > boards.HEADLINE_ITEMS


def test_frame_table_formats_floats_and_keeps_other_values():
    frame = pl.DataFrame({"bot": ["a", "b"], "mean": [1.23456, 2.0], "n": [3, 4]})
    assert markdown.frame_table(frame, ".2f").splitlines() == [
        "| bot | mean | n |", "|---|---|---|", "| a | 1.23 | 3 |", "| b | 2.00 | 4 |",
    ]  # fmt: skip


def test_a_report_folder_rebuilds_from_the_runs_its_manifest_lists(tmp_path):
    study = tmp_path / "study"
    b = write_run(study / "b-seats", multiplayer_frame(200, 2, seed=1))
    a = write_run(study / "a-solo", solo_frame(1500, lambda g, o, r: 40 + 0 * g))
    out = reporting.write_study_report([b, a], tmp_path / "report", title="Two runs",
                                       command="make it", config={"n": 1})  # fmt: skip
    first = (out / "README.md").read_text()
    assert first.index("| `b-seats` |") < first.index("| `a-solo` |")
    (out / "README.md").unlink()
    # The report folder holds no runs; its manifest names them, in their order.
    assert reporting.main([str(out)]) == 0
    assert (out / "README.md").read_text() == first
    manifest = read_report_manifest(out).to_json()
    assert (manifest["title"], manifest["command"], manifest["config"]) == (
        "Two runs", "make it", {"n": 1},
    )  # fmt: skip
    assert manifest["runs"] == [b.resolve().as_posix(), a.resolve().as_posix()]
    shutil.rmtree(a)
    with pytest.raises(FileNotFoundError, match=r"run folder.*are gone"):
        reporting.write_report(out)


def test_python_m_pu_sim_report_rebuilds_a_report(tmp_path):
    run = write_run(tmp_path / "run", multiplayer_frame(100, 2, seed=2))
    done = subprocess.run(
        [sys.executable, "-m", "pu_sim.report", str(run), "--out", str(tmp_path / "r")],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout.split() == [
        str(tmp_path / "r" / "README.md"),
        str(tmp_path / "r" / "index.html"),
    ]
    manifest = read_report_manifest(tmp_path / "r").to_json()
    assert (
        manifest["command"] == f"python -m pu_sim.report {run} --out {tmp_path / 'r'}"
    )


def test_a_report_never_overwrites_a_run_manifest(tmp_path):
    run = write_run(tmp_path / "run", multiplayer_frame(50, 2))
    with pytest.raises(ValueError, match="is a run folder"):
        reporting.write_report(run, run)
    assert runfolder.read_manifest(run).to_json()["n_games"] == 50
