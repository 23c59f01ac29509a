"""The power-use table: known answers on hand-made rows, and a smoke run."""

from __future__ import annotations

import polars as pl
import pytest
from experiment_scripts import load

from pu_sim.lab import power_use as use


def rows(bot: str, used: list[bool], *, power: str = "use tech 4", rounds=None):
    return pl.DataFrame(
        {
            "game": [i // 2 for i in range(len(used))],
            "seat": 0,
            "corporation": "Makeshift",
            "round": rounds or [i % 2 for i in range(len(used))],
            "kind": "activated",
            "power": power,
            "used": used,
            "bot": bot,
        },
        schema={**use.ROW_SCHEMA, "bot": pl.String},
    )


def test_rates_by_offer_and_by_round():
    # two games of two rounds, one offer per round; used in one round of four
    table = use.power_table(rows("greedy", [True, False, False, False]))
    (r,) = table.to_dicts()
    assert (r["offered"], r["used"], r["games"]) == (4, 1, 2)
    assert r["use_rate"] == 0.25 and r["uses_per_game"] == 0.5
    assert r["round_rate"] == 0.25


def test_a_power_offered_twice_in_a_round_counts_that_round_once():
    table = use.power_table(rows("greedy", [True, False], rounds=[1, 1]))
    assert table["round_rate"].to_list() == [1.0]
    assert table["use_rate"].to_list() == [0.5]


def test_ignored_powers_names_what_the_bot_never_uses_with_random_beside_it():
    frame = pl.concat(
        [rows("greedy_tuned", [False] * 40), rows("random", [True, False] * 20)]
    )
    ignored = use.ignored_powers(use.power_table(frame), "greedy_tuned")
    assert ignored["power"].to_list() == ["use tech 4"]
    assert ignored["random_round_rate"].to_list() == [0.5]
    used = pl.concat([rows("greedy_tuned", [True] * 40), rows("random", [False] * 40)])
    assert use.ignored_powers(use.power_table(used), "greedy_tuned").height == 0
    few = rows("greedy_tuned", [False] * 10)  # too few offers to judge
    assert use.ignored_powers(use.power_table(few), "greedy_tuned").height == 0


def test_a_once_a_game_power_kept_for_the_last_round_is_not_ignored():
    # offered in 20 rounds of each of 3 games, used once a game in its last round
    used = [r == 19 for _ in range(3) for r in range(20)]
    frame = rows("greedy_tuned", used, rounds=[r for _ in range(3) for r in range(20)])
    frame = frame.with_columns(game=pl.Series([i // 20 for i in range(60)]))
    table = use.power_table(frame)
    assert table["round_rate"].to_list() == [0.05]  # few of its rounds ...
    assert use.ignored_powers(table, "greedy_tuned").height == 0  # ... yet used


def test_ignored_powers_carry_their_reason():
    ignored = use.ignored_powers(
        use.power_table(rows("greedy", [False] * 40)), ["greedy", "greedy_tuned"]
    )
    assert ignored["bot"].to_list() == ["greedy"]
    assert ignored["why"].to_list() == [use.WHY_IGNORED[("Makeshift", "use tech 4")]]
    other = rows("greedy", [False] * 40, power="use tech 2: something")
    assert use.ignored_powers(use.power_table(other), "greedy")["why"].to_list() == [""]
    # a reason given for one bot is that bot's only
    cosmos = rows("greedy", [False] * 40, power=use.LIFEPOD_ON_TRACK).with_columns(
        corporation=pl.lit("Cosmos Inc.")
    )
    for bot in ("greedy", "policy_td", "greedy_tuned"):
        why = use.ignored_powers(
            use.power_table(cosmos.with_columns(bot=pl.lit(bot))), bot
        )
        assert why["why"].to_list() == [
            use.WHY_IGNORED.get(("Cosmos Inc.", "special rule", bot), "")
        ]
    assert ("Cosmos Inc.", "special rule", "greedy") in use.WHY_IGNORED
    assert ("Cosmos Inc.", "special rule", "policy_td") not in use.WHY_IGNORED


def test_the_committed_report_explains_every_power_the_bots_ignore():
    """The power-use report of the current engine: every power a greedy bot
    leaves unused has its reason (WHY_IGNORED), else the bot or the table is
    wrong for that corporation's balance."""
    import json
    from pathlib import Path

    from pu_sim import _core

    reports = sorted(
        (Path(__file__).parents[1] / "reports" / "bots" / "power_use").glob("*")
    )
    assert reports, "no committed power-use report"
    (report,) = reports
    versions = json.loads((report / "manifest.json").read_text())["versions"]
    assert versions["engine"] == _core.ENGINE_VERSION, "re-run the power-use report"
    table = pl.read_csv(report / "tables" / "power_use.csv")
    bots = [b for b in table["bot"].unique().to_list() if b != "random"]
    ignored = use.ignored_powers(table, bots)
    assert (ignored["why"] != "").all(), ignored.select("bot", "corporation", "power")


def test_decision_mix_counts_decisions_per_game():
    frame = rows("greedy", [True] * 4).with_columns(
        kind=pl.lit("decision"), power=pl.Series(["rover_step"] * 3 + ["place"])
    )
    mix = use.decision_mix(frame)
    assert mix["rover_step"].to_list() == [1.5] and mix["place"].to_list() == [0.5]
    # columns in name order, whatever order the kinds were met in
    assert mix.columns == ["bot", "corporation", "place", "rover_step"]
    assert use.decision_mix(frame.reverse()).columns == mix.columns


def test_smoke_run_writes_the_report(tmp_path):
    module = load("bots/power_use")
    assert module.main(["--smoke", "--out", str(tmp_path), "--jobs", "1"]) == 0
    report = tmp_path / "bots" / "power_use" / "smoke"
    readme = (report / "README.md").read_text()
    assert "## Powers the bots ignore" in readme
    table = pl.read_csv(report / "tables" / "power_use.csv")
    assert set(table["bot"]) <= {"greedy_tuned", "greedy", "random"}
    assert table.height > 0 and (table["used"] <= table["offered"]).all()
    assert (report / "manifest.json").is_file()


def test_a_game_the_engine_had_to_stop_is_refused_not_counted(monkeypatch):
    """A policy that went round until the decision limit once slipped into the
    committed table as 20,000 decisions of play; such a game now stops the run."""
    monkeypatch.setattr(use.Game, "status", property(lambda game: "decision_limit"))
    with pytest.raises(RuntimeError, match=r"game 0 of seed 3 .*'decision_limit'"):
        use.observe_game("random", ["makeshift", "random"], players=2, seed=3,
                         game_index=0)  # fmt: skip
    monkeypatch.undo()
    assert use.observe_game("random", ["makeshift", "random"], players=2, seed=3,
                            game_index=0)  # fmt: skip


def test_outcomes_refuse_games_that_did_not_end_ok(monkeypatch):
    real = use.simulate

    def one_stopped(*args, **kwargs):
        frame = real(*args, **kwargs).with_columns(pl.col("status").cast(pl.String))
        return frame.with_columns(
            status=pl.when(pl.int_range(pl.len()) == 0)
            .then(pl.lit("decision_limit"))
            .otherwise(pl.col("status"))
        )

    assert use.outcome_table(["random"], n_games=4, seed=1).height
    monkeypatch.setattr(use, "simulate", one_stopped)
    with pytest.raises(RuntimeError, match=r"1 seats of games that did not end 'ok'"):
        use.outcome_table(["random"], n_games=4, seed=1)


def test_cosmos_special_rule_is_counted_as_a_power():
    """Where a collected lifepod goes (Cosmos): offered whenever a track space
    is open, used when the bot puts it there.  greedy_learned and policy_td
    (whose network sees the lifepods each tracker will jump) both put one
    there in some of these games, and leave it in the scoring area in others."""

    def offers(bot: str) -> pl.DataFrame:
        frames = [pl.DataFrame(use.observe_game(bot, ["cosmos_inc", "random"],
                                                players=2, seed=41, game_index=i),
                               schema=use.ROW_SCHEMA)
                  for i in range(12)]  # fmt: skip
        return pl.concat(frames).filter(pl.col("power") == use.LIFEPOD_ON_TRACK)

    for bot in ("greedy_learned", "policy_td"):
        seen = offers(bot)
        assert seen.height > 0 and seen["used"].any() and not seen["used"].all(), bot
        assert set(seen["kind"]) == {"special"} and "special" in use.OWN_KINDS
