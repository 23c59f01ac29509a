"""The main study's report: verdicts under two policies, warnings, round scores."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from synthetic_games import multiplayer_frame, write_run

from pu_sim.analysis import feel
from pu_sim.report import reporting
from pu_sim.report.policies import find_policies
from pu_sim.report.runs import load_runs, run_info
from pu_sim.report.sections import survival
from pu_sim.report.sections.warnings import confounded_runs
from pu_sim.rules import load_game_data
from pu_sim.simulation import runfolder
from pu_sim.simulation.in_memory import play_range, play_range_traced
from pu_sim.simulation.plan import Plan
from pu_sim.simulation.runner import RunFolderError, run
from pu_sim.simulation.table import table_of
from pu_sim.studies import harness
from pu_sim.studies import main as study


def set_metadata(path, **metadata):
    """Add to a synthetic run's manifest metadata (a study's roles)."""
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["metadata"].update(metadata)
    (path / "manifest.json").write_text(json.dumps(manifest))
    return path


def edit_manifest(path, **changes):
    manifest = json.loads((path / "manifest.json").read_text())
    manifest.update(changes)
    (path / "manifest.json").write_text(json.dumps(manifest))
    return path


# --------------------------------------------------------------------------------
# The round score trace
# --------------------------------------------------------------------------------


def test_tracing_round_scores_leaves_the_games_unchanged():
    table = table_of(None, {"players": 4, "bots": "greedy", "corporations": "random",
                            "planets": "random"})  # fmt: skip
    plan = Plan.of(table, seed=5)
    plain = play_range(plan, 3, 6)
    traced, rounds = play_range_traced(plan, 3, 6)
    assert np.array_equal(plain, traced)
    rounds = feel.validate_round_scores(rounds)
    assert sorted(rounds["game_id"].unique().to_list()) == list(range(3, 9))
    last = rounds.group_by("game_id", "seat").agg(
        pl.col("round").max(), pl.col("score").sort_by("round").last()
    )
    final = pl.DataFrame(
        {"game_id": traced["game_id"], "seat": traced["seat"],
         "score_end": traced["score"], "rounds": traced["rounds"]}
    ).with_columns(pl.col("game_id", "seat").cast(pl.UInt64))  # fmt: skip
    joined = last.with_columns(pl.col("game_id", "seat").cast(pl.UInt64)).join(
        final, on=["game_id", "seat"]
    )
    assert joined.height == 24
    assert (joined["score"] == joined["score_end"]).all()  # the last round: final
    assert (joined["round"] == joined["rounds"]).all()  # every round is there
    first = rounds.filter(pl.col("round") == 1)["score"]
    assert first.max() < joined["score"].min() + 60  # early scores are partial


def test_a_run_keeps_round_scores_only_when_asked(tmp_path):
    kwargs = {"players": 3, "bots": "greedy", "seed": 2, "group_size": 3}
    traced = run(6, out=tmp_path / "traced", round_scores=True, **kwargs)
    plain = run(6, out=tmp_path / "plain", **kwargs)
    assert runfolder.scan_round_scores(plain.path) is None
    table = runfolder.scan_round_scores(traced.path)
    assert table is not None
    rounds = feel.validate_round_scores(table.collect())
    assert rounds["game_id"].n_unique() == 6
    games = traced.scan().collect()
    assert games.equals(plain.scan().collect())
    assert traced.manifest.to_json()["config"]["round_scores"] is True
    with pytest.raises(RunFolderError, match="round_scores"):
        run(6, out=tmp_path / "traced", **kwargs)  # resumed with another setting


# --------------------------------------------------------------------------------
# Warnings at the top of a report
# --------------------------------------------------------------------------------


def test_a_seat_study_with_boards_fixed_per_seat_warns(tmp_path):
    frame = multiplayer_frame(600, 2, seed=3, seat_effect=[4.0, 0.0])
    fixed = write_run(tmp_path / "runs" / "fixed", frame,
                      corporations=["Alpha Corp", "Beta Corp"])  # fmt: skip
    assert confounded_runs([run_info(fixed)]) == ["fixed"]
    readme = (reporting.write_report(fixed, tmp_path / "r1") / "README.md").read_text()
    assert "**Seat and board confounded.**" in readme
    assert readme.index("## Read this first") < readme.index("## Headline findings")
    assert "## Seat order" not in readme  # refused, not shown
    rotated = write_run(tmp_path / "runs" / "rotated", frame, group_size=2,
                        corporations=["Alpha Corp", "Beta Corp"])  # fmt: skip
    shared = write_run(tmp_path / "runs" / "shared", frame)
    assert confounded_runs([run_info(rotated), run_info(shared)]) == []
    readme = (reporting.write_report(shared, tmp_path / "r2") / "README.md").read_text()
    assert "confounded" not in readme and "## Seat order" in readme


def test_a_partial_run_says_so_at_the_top(tmp_path):
    path = write_run(tmp_path / "runs" / "cut", multiplayer_frame(300, 3, seed=1))
    edit_manifest(path, status="interrupted", n_games=500)
    with pytest.raises(ValueError, match=r"games 300\.\.499 are missing"):
        reporting.write_report(path, tmp_path / "r")  # only when asked
    with pytest.warns(UserWarning, match="is incomplete"):
        out = reporting.write_report(path, tmp_path / "r", allow_incomplete=True)
    readme = (out / "README.md").read_text()
    assert readme.splitlines()[2].startswith("**Written from an incomplete run.**")
    assert "**Partial data.**" in readme and "300 of 500 games" in readme
    assert readme.index("**Partial data.**") < readme.index("## Headline findings")


def test_runs_of_different_rules_are_not_pooled(tmp_path):
    a = write_run(tmp_path / "runs" / "base", multiplayer_frame(400, 3, seed=1))
    b = write_run(tmp_path / "runs" / "variant", multiplayer_frame(200, 3, seed=2),
                  options={"some_rule": True})  # fmt: skip
    out = reporting.write_study_report([a, b], tmp_path / "r")
    readme = (out / "README.md").read_text()
    assert "**Different rule options.**" in readme and "never pooled" in readme
    seats = pl.read_csv(out / "tables" / "seat_effect.csv")
    assert seats["n"].sum() == 400 * 3  # only the runs with the most games


def test_rule_sets_stand_side_by_side(tmp_path):
    """A variant run where Alpha is strong beside the published run where it is
    fair: each column shows its own rule set's effect, nothing pooled."""
    a = write_run(tmp_path / "runs" / "base", multiplayer_frame(600, 3, seed=1,
                  group_size=3), group_size=3)  # fmt: skip
    frame = multiplayer_frame(600, 3, corp_effect={"Alpha Corp": 10.0}, seed=2,
                              group_size=3)  # fmt: skip
    b = write_run(tmp_path / "runs" / "strong-alpha", frame, group_size=3,
                  variant={"name": "strong-alpha", "digest": "abc123def4567"})  # fmt: skip
    out = reporting.write_study_report([a, b], tmp_path / "r")
    readme = (out / "README.md").read_text()
    assert "## Rules side by side" in readme
    assert "variant strong-alpha (abc123def456)" in readme
    long = pl.read_csv(out / "tables" / "rules_side_by_side.csv")
    alpha = long.filter(
        (pl.col("name") == "Alpha Corp") & (pl.col("kind") == "corporation")
    )
    by_rules = dict(zip(alpha["rules"], alpha["win_pp"], strict=True))
    assert by_rules["published"] == pytest.approx(0.0, abs=8.0)
    strong = next(v for k, v in by_rules.items() if "strong-alpha" in k)
    assert strong > 25.0  # Alpha's +10 points win most of its games
    table = readme[readme.index("## Rules side by side") :]
    assert "| 3 | corporation | Alpha Corp |" in table


# --------------------------------------------------------------------------------
# Verdicts under two policies
# --------------------------------------------------------------------------------


def two_policy_study(tmp_path):
    """Greedy-labelled primary and second runs on the same setups: Alpha is strong
    under both, Beta only under the primary."""
    runs = []
    for role, bot, effects, games in (
        ("primary", "strong", {"Alpha Corp": 8.0, "Beta Corp": 6.0}, 3000),
        ("second", "other", {"Alpha Corp": 8.0, "Beta Corp": -6.0}, 1500),
    ):
        frame = multiplayer_frame(games, 3, corp_effect=effects, group_size=3,
                                  bot=bot, seed=len(runs))  # fmt: skip
        path = write_run(
            tmp_path / "runs" / role, frame, pairing="setups-3p", group_size=3,
            bots=[{"kind": "greedy", "label": bot, "params": {}}] * 3,
        )  # fmt: skip
        runs.append(set_metadata(path, role=role))
    return runs


def test_verdicts_open_the_report_and_only_robust_findings_are_headlines(tmp_path):
    runs = two_policy_study(tmp_path)
    out = reporting.write_study_report(runs, tmp_path / "report")
    readme = (out / "README.md").read_text()
    assert "played by **strong**, checked by **other**" in readme[:400]
    verdicts = readme.index("## Verdicts at a glance (strong, checked by other)")
    assert verdicts < readme.index("## Headline findings")
    table = pl.read_csv(out / "tables" / "verdicts.csv")
    label = dict(zip(table["name"], table["label"], strict=True))
    assert label["Alpha Corp"] == "robust"
    assert label["Beta Corp"] == "bot-dependent"
    headlines = readme[readme.index("## Headline findings") :].split("\n## ")[0]
    robust = next(h for h in headlines.splitlines() if "**Robust at 3 players**" in h)
    assert "Alpha Corp" in robust.split("Not findings")[0]
    assert "Beta Corp" not in robust.split("Not findings")[0]
    assert "Beta Corp" in robust.split("Not findings")[1]
    agreement = pl.read_csv(out / "tables" / "rank_agreement.csv")
    assert set(agreement["kind"]) == {"corporation", "planet"}
    assert (agreement["shared_clusters"] == 500).all()  # the second's 500 setups
    assert "(weak)" not in readme


def test_a_third_opinion_is_read_beside_every_verdict_and_votes_in_none(tmp_path):
    """The third policy sees Alpha strong like the two, and Beta weak."""
    runs = two_policy_study(tmp_path)
    frame = multiplayer_frame(1500, 3, corp_effect={"Alpha Corp": 8.0,
                              "Beta Corp": -6.0}, group_size=3, bot="family",
                              seed=7)  # fmt: skip
    path = write_run(
        tmp_path / "runs" / "third", frame, pairing="setups-3p", group_size=3,
        bots=[{"kind": "policy", "label": "family", "params": {}}] * 3,
    )  # fmt: skip
    out = reporting.write_study_report(
        [*runs, set_metadata(path, role="third")], tmp_path / "report"
    )
    alone = reporting.write_study_report(runs, tmp_path / "alone")
    table = pl.read_csv(out / "tables" / "verdicts.csv")
    before = pl.read_csv(alone / "tables" / "verdicts.csv")
    assert table.select(before.columns).equals(before)  # no label moved
    third = dict(zip(table["name"], table["third"], strict=True))
    assert third["Alpha Corp"] == "agrees"
    assert third["Beta Corp"] == "opposes"  # against the primary's direction
    readme = (out / "README.md").read_text()
    assert "third opinion: win - 1/n, pp (family)" in readme
    line = next(h for h in readme.splitlines() if "**Third opinion at 3 players**" in h)
    assert "(family, another family of play, on 500 of the same setups" in line
    robust = table.filter(pl.col("label") == "robust")
    assert "Alpha Corp" in robust["name"].to_list()
    assert (robust["third"] == "agrees").all()  # Beta is bot-dependent, not robust
    n = robust.height
    assert f"of the {n} robust findings, agrees {n}, same sign 0" in line
    assert "## Seat order and the first commander (strong, other, family)" in readme
    assert "third opinion" not in (alone / "README.md").read_text().lower()


def test_a_weaker_bots_findings_are_checked_at_strength(tmp_path):
    """The ladder's weak bot finds Alpha strong (the strong bots agree: it
    survives) and Gamma strong (the primary finds it weak: contradicted); Beta,
    weak under the weak bot, is bot-dependent at strength: contradicted."""
    runs = two_policy_study(tmp_path)
    frame = multiplayer_frame(3000, 3, corp_effect={"Alpha Corp": 8.0,
                              "Gamma Corp": 8.0}, group_size=3, bot="weak",
                              seed=9)  # fmt: skip
    path = write_run(
        tmp_path / "runs" / "ladder", frame, pairing="setups-3p", group_size=3,
        bots=[{"kind": "greedy", "label": "weak", "params": {}}] * 3,
    )  # fmt: skip
    for r in runs:
        set_metadata(r, ladder=["weak", "strong", "other"])
    runs.append(set_metadata(path, role="ladder", ladder=["weak", "strong", "other"]))
    out = reporting.write_study_report(runs, tmp_path / "report")
    table = pl.read_csv(out / "tables" / "survival_weak.csv")
    status = dict(zip(table["name"], table["status"], strict=True))
    assert status["Alpha Corp"] == "survives"
    assert status["Gamma Corp"] == "contradicted"
    assert status["Beta Corp"] == "contradicted"
    assert set(table.filter(pl.col("status") != "missed")["significant_weak"]) == {True}
    readme = (out / "README.md").read_text()
    assert "## Findings of weak at strength (strong, other)" in readme
    headline = next(h for h in readme.splitlines() if "**Findings of weak" in h)
    kept, rest = headline.split("Contradicted:")
    contradicted = rest.split("Not confirmed:")[0]
    assert "Alpha Corp at 3p (weak +" in kept and "Gamma Corp" not in kept
    assert "Beta Corp at 3p" in contradicted and "Gamma Corp at 3p" in contradicted


def test_every_status_of_a_weaker_bots_finding():
    """Weak games with Alpha strong and Gamma weak (so Beta and Delta lose too);
    the strong verdicts by hand: Alpha and Gamma robust the same way, Beta
    robust the other way, Delta unresolved, the planet North robust (no planet
    effect under the weak bot: missed)."""
    weak = multiplayer_frame(3000, 3, corp_effect={"Alpha Corp": 8.0,
                             "Gamma Corp": -8.0}, group_size=3, bot="weak",
                             seed=4).with_columns(group=pl.col("game_id") // 3)  # fmt: skip
    verdicts = pl.DataFrame({
        "n_players": [3] * 5, "kind": ["corporation"] * 4 + ["planet"],
        "name": ["Alpha Corp", "Gamma Corp", "Beta Corp", "Delta Corp", "North"],
        "win_pp_a": [9.0, -3.0, 6.0, -2.0, 5.0],
        "win_pp_b": [7.0, -4.0, 5.0, -4.0, 4.0],
        "label": ["robust", "robust", "robust", "unresolved", "robust"],
    })  # fmt: skip
    table = survival.survival_table(weak, verdicts)
    status = dict(zip(table["name"], table["status"], strict=True))
    assert status == {"Alpha Corp": "survives", "Gamma Corp": "survives",
                      "Beta Corp": "contradicted", "Delta Corp": "not confirmed",
                      "North": "missed"}  # fmt: skip


def test_policies_come_from_roles_or_else_from_the_games(tmp_path):
    runs = two_policy_study(tmp_path)
    games = reporting._with_policy(load_runs(runs))
    infos = [run_info(r) for r in runs]
    assert find_policies(infos, games).primary == "strong"
    assert find_policies(infos, games).second == "other"
    for r in runs:  # without roles: the most seats, then the most shared setups
        set_metadata(r, role=None)
    fallback = find_policies([run_info(r) for r in runs], games)
    assert (fallback.primary, fallback.second) == ("strong", "other")


# --------------------------------------------------------------------------------
# The study's options
# --------------------------------------------------------------------------------


def test_the_study_plays_the_strong_bot_at_every_player_count():
    config = study.Config()
    assert (config.bot.label, config.second.label) == ("greedy_tuned", "greedy_learned")
    runs = {name: (key, kw) for name, key, kw in study._runs(config)}
    primary = [(k, kw) for k, kw in runs.values() if kw["extra"]["role"] == "primary"]
    assert sorted(kw["table"]["players"] for _, kw in primary) == [2, 3, 4, 5, 6]
    assert all(kw["round_scores"] for _, kw in primary)
    solo = [kw for _, kw in runs.values() if kw["table"]["players"] == 1]
    assert {kw["table"]["bots"].label for kw in solo} == {
        "random", "greedy", "greedy_tuned", config.second.label}  # fmt: skip
    second = {kw["table"]["players"]: (k, kw) for k, kw in runs.values()
              if kw["extra"]["role"] == "second"}  # fmt: skip
    assert sorted(second) == [2, 3, 4, 5, 6]
    for p, (key, kwargs) in second.items():  # the same setups as the primary's
        first_key, first = next(
            (k, kw) for k, kw in primary if kw["table"]["players"] == p
        )
        assert (key, kwargs["pairing"]) == (first_key, first["pairing"])
        assert kwargs["n_games"] == first["n_games"] and not kwargs["round_scores"]
    keys = {key for key, _ in runs.values()}  # solo runs each have their own
    assert len([k for k in keys if k[0] not in ("setups", "mixed")]) == 5
    for _, kwargs in runs.values():  # every seat draws from every board
        table = kwargs["table"]
        assert table["corporations"] in ("random", ALL_CORPORATIONS), table
        assert table["planets"] in ("random", ALL_PLANETS), table


def test_the_mixed_tables_put_the_odd_seat_everywhere_on_shared_setups():
    config = study.Config()
    mixed = [(name, key, kw) for name, key, kw in study._runs(config)
             if kw["extra"]["role"] == "mixed"]  # fmt: skip
    for p in (2, 3, 4):
        runs = [(name, key, kw) for name, key, kw in mixed
                if kw["table"]["players"] == p]  # fmt: skip
        kinds = 1 if p == 2 else 2  # at 2 players one table is both kinds
        assert len(runs) == kinds * p
        assert {key for _, key, _ in runs} == {("mixed", p)}  # the same setups
        odd_seats = set()
        for _, _, kw in runs:
            labels = [b.label for b in kw["table"]["bots"]]
            odd = [s for s, b in enumerate(labels) if labels.count(b) == 1]
            odd_seats.add((labels[odd[0]], odd[0]) if p > 2 else tuple(labels))
            assert set(labels) == {"greedy_tuned", "greedy"}
            assert kw["table"]["group_size"] == p and kw["n_games"] % p == 0
        assert len(odd_seats) == kinds * p  # every odd seat, each level
    assert sum(kw["n_games"] for _, _, kw in mixed) == pytest.approx(
        5 * config.n_games * config.mixed_share, rel=0.05
    )


ALL_CORPORATIONS = [tuple(sorted(load_game_data().playable_corporations))]
ALL_PLANETS = [tuple(sorted(load_game_data().playable_planets))]


def start(argv: list[str]) -> study.Config:
    return harness.start("main", study.Config(), argv, doc=None, smoke={},
                         check=study._check).config  # fmt: skip


def test_bot_and_second_are_study_options():
    config = start(["--bot", "greedy"])
    assert (config.bot.label, config.second.label) == ("greedy", "greedy_learned")
    assert config.weak.label == "greedy_tuned"  # the mixed tables face the old bot
    assert start(["--bot", "greedy", "--weak", "random"]).weak.label == "random"
    config = start(["--bot", "greedy_learned"])  # not itself
    assert (config.bot.label, config.second.label) == ("greedy_learned", "greedy_tuned")
    config = start(["--second", "search:budget=2"])
    assert config.second.kind == "search" and config.second.params["budget"] == 2
    config = start(["--second", "greedy"])
    assert (config.bot.label, config.second.label) == ("greedy_tuned", "greedy")
    for bad in (["--bot", "greedy", "--second", "greedy"], ["--bot", "no_such_bot"],
                ["--weak", "greedy_tuned"], ["--mixed-players", "1"]):  # fmt: skip
        with pytest.raises(SystemExit):
            start(bad)


def test_pu_sim_study_passes_every_flag_to_the_study(monkeypatch, tmp_path):
    from pu_sim.cli import main

    seen: list[tuple[list[str], str]] = []
    monkeypatch.setattr(
        study, "main", lambda argv, program: seen.append((list(argv), program)) or 0
    )
    argv = ["--smoke", "--bot", "greedy", "--second", "random", "--out", str(tmp_path)]
    assert main(["study", *argv]) == 0
    assert seen == [(argv, "pu-sim study")]


def test_many_runs_are_listed_one_row_per_kind(tmp_path):
    """A calibration of hundreds of runs listed each one (468 rows): above
    MAX_RUN_ROWS the table groups runs by players, bots, seed and group size."""
    from pu_sim.report.sections import runs as runs_section

    frame = multiplayer_frame(6, 2, seed=1)
    paths = [write_run(tmp_path / f"deck-{k}", frame) for k in range(41)]
    infos = [run_info(p) for p in paths]
    text = runs_section.runs_facts(infos, 0, frame.height)
    assert "41 runs, one row per kind" in text
    rows = [line for line in text.splitlines() if line.startswith("| `deck-0`")]
    assert len(rows) == 1 and "`deck-0` ... `deck-40` | 41 |" in rows[0]
    assert "| 246 |" in rows[0]  # 41 runs x 6 games
    few = runs_section.runs_facts(infos[:3], 0, frame.height)
    assert "one row per kind" not in few and "| `deck-2` |" in few
