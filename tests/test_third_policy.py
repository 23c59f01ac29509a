"""The third opinion: its reading of each verdict, and the studies that play it."""

from __future__ import annotations

from types import SimpleNamespace

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from synthetic_games import multiplayer_frame

from pu_sim.analysis import third_policy, verdicts
from pu_sim.report.policies import find_policies
from pu_sim.studies import main as main_study
from pu_sim.studies import policies
from pu_sim.studies.harness import start

finite = st.floats(-50, 50, allow_nan=False)


@given(st.lists(st.tuples(finite, finite, st.booleans()), min_size=1, max_size=30))
def test_a_reading_is_the_sign_against_the_primary_and_the_significance(rows):
    primary, third, significant = (list(v) for v in zip(*rows, strict=True))
    expected = {
        (True, True): "agrees",
        (True, False): "same sign",
        (False, False): "opposite sign",
        (False, True): "opposes",
    }
    got = third_policy.readings(primary, third, significant)
    for a, c, sig, reading in zip(primary, third, significant, got, strict=True):
        same = (a > 0 and c > 0) or (a < 0 and c < 0)  # no underflow of a * c
        assert reading == expected[(same, sig)]


@pytest.mark.parametrize("name", third_policy.READINGS)
def test_every_reading_has_its_meaning_in_the_glossary(name):
    assert len(third_policy.GLOSSARY[name]) > 30


def test_the_third_policy_reads_known_effects_and_never_changes_a_label():
    """Alpha strong and Delta weak under both greedy-like policies; the third
    sees Alpha strong too, Delta strong instead, and plays half the setups."""
    a = multiplayer_frame(3000, 3, corp_effect={"Alpha Corp": 4, "Delta Corp": -4},
                          group_size=3, setup_sd=3, seed=11)  # fmt: skip
    b = multiplayer_frame(3000, 3, corp_effect={"Alpha Corp": 4, "Delta Corp": -4},
                          group_size=3, setup_sd=3, seed=12)  # fmt: skip
    c = multiplayer_frame(1500, 3, corp_effect={"Alpha Corp": 4, "Delta Corp": 4},
                          group_size=3, setup_sd=3, seed=13)  # fmt: skip
    table = verdicts.verdict_table(a, b, group_size=3)
    out = third_policy.third_opinion(table, c, group_size=3)
    assert out.select(table.columns).equals(table)  # the labels are untouched
    corps = out.filter(pl.col("kind") == "corporation")
    got = dict(zip(corps["name"], corps["third"].cast(pl.String), strict=True))
    labels = dict(zip(corps["name"], corps["label"].cast(pl.String), strict=True))
    assert labels["Alpha Corp"] == labels["Delta Corp"] == "robust"
    assert got["Alpha Corp"] == "agrees"
    assert got["Delta Corp"] == "opposes"
    delta = corps.filter(pl.col("name") == "Delta Corp").row(0, named=True)
    assert delta["win_lower_c"] > 0 and delta["win_pp_a"] < 0


def test_rows_the_third_policy_did_not_play_have_no_reading():
    a = multiplayer_frame(600, 2, group_size=2, seed=1)
    b = multiplayer_frame(600, 2, group_size=2, seed=2)
    c = multiplayer_frame(300, 3, group_size=3, seed=3)  # another player count
    out = third_policy.third_opinion(verdicts.verdict_table(a, b, group_size=2), c)
    assert out["third"].is_null().all() and out["win_pp_c"].is_null().all()


def test_the_third_policy_is_found_only_by_its_role():
    def info(role: str, bot: str) -> SimpleNamespace:  # what find_policies reads
        return SimpleNamespace(role=role, bot_specs=(SimpleNamespace(label=bot),),
                               ladder=())  # fmt: skip

    games = pl.DataFrame(
        {"bot": ["greedy_tuned", "greedy_learned", "policy_td"], "group": [0, 0, 0],
         "n_players": [2, 2, 2], "n_bots": [1, 1, 1]}
    )  # fmt: skip
    infos = [info("primary", "greedy_tuned"), info("second", "greedy_learned")]
    assert find_policies(infos, games).third is None
    found = find_policies([*infos, info("third", "policy_td")], games)
    assert found.third == "policy_td"
    assert found.opinions == ["greedy_tuned", "greedy_learned", "policy_td"]
    assert found.chosen == ["greedy_tuned", "greedy_learned"]  # it does not vote


def _study(argv: list[str]) -> main_study.Config:
    return start(
        "main", main_study.Config(), argv, doc="main", smoke={}, check=main_study._check
    ).config


def test_the_main_study_plays_the_third_opinion_on_the_same_setups():
    config = _study(["--games", "600", "--third-games", "120", "--players", "2", "4"])
    runs = {name: (key, kw) for name, key, kw in main_study._runs(config)}
    for p in (2, 4):
        key, kw = runs[f"third-policy_td-{p}p"]
        assert kw["n_games"] == 120 and kw["extra"]["role"] == "third"
        primary_key, primary = runs[f"primary-greedy_tuned-{p}p"]
        assert key == primary_key and kw["pairing"] == primary["pairing"]
    none = _study(["--third", "none"])
    assert none.third is None
    assert not [n for n, _, _ in main_study._runs(none) if n.startswith("third")]


def test_a_study_without_a_third_opinion_records_a_command_that_replays():
    study = start("main", main_study.Config(), ["--third", "none"], doc="m", smoke={})
    assert "--third none" in study.command
    words = study.command.split()
    argv = words[words.index("--games") :]  # the flags after the program
    assert _study(argv).third is None


def test_a_bot_in_two_roles_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        _study(["--third", "greedy_learned"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--second and --third must differ, both are 'greedy_learned'" in err


def test_roles_name_every_policy_with_its_games():
    config = _study(["--games", "300", "--second-share", "0.5"])
    assert [(r, b.label, g) for r, b, g in policies.roles(config)] == [
        ("primary", "greedy_tuned", 300),
        ("second", "greedy_learned", 150.0),
        ("third", "policy_td", policies.THIRD_GAMES),
    ]


def test_mixed_tables_of_two_policies_play_each_table_once():
    """At 2 players one a seat and one b seat is both kinds of table: played
    once, or the same games would count twice; from 3 players both kinds."""
    from pu_sim import bots
    from pu_sim.lab import families

    a, b = bots.preset("policy_td"), bots.preset("greedy_learned")

    def labels(tables):
        return [tuple(bot.label for bot in seats) for _, seats in tables]

    two = labels(policies.lone_seat_tables(2, a, b))
    assert len(two) == len(set(two)) == 2
    four = policies.lone_seat_tables(4, a, b)
    assert len(four) == len(set(labels(four))) == 8
    assert four[1][0] == "policy_td-among-greedy_learned-4p-seat1"
    assert labels(four)[1] == ("greedy_learned", "policy_td", "greedy_learned",
                               "greedy_learned")  # fmt: skip
    runs = families.table_runs((2, 3, 4), a, b, 12_000)
    assert [len([r for r in runs if r[1] == p]) for p in (2, 3, 4)] == [2, 6, 8]
    sizes = {p: n for _, p, _, n in runs}
    assert sizes == {2: 6000, 3: 2001, 4: 1500}  # whole setups, as committed
