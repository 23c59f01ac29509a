"""Skill depth from mixed-skill tables (pu_sim.analysis.mixed_skill)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from pu_sim.analysis import mixed_skill as ms

BOARDS = ["a", "b", "c", "d", "e", "f"]


def mixed_frame(
    setups: int,
    players: int,
    *,
    skill: float = 3.0,
    board_strength: dict[str, float] | None = None,
    board_skill: dict[str, float] | None = None,
    setup_sd: float = 2.0,
    setup_skill_sd: float = 0.0,
    seed: int = 0,
) -> pl.DataFrame:
    """Mixed tables as the main study plays them.

    Each setup deals ``players`` boards; it is played with the odd seat at
    every position and the boards rotated one seat per game, once with one
    strong seat among weak ones and (from 3 players) once with one weak seat
    among strong ones.  A seat scores its board's strength, plus ``skill``
    (and the board's own extra payoff of skill) when it is strong, plus the
    setup's shared luck and noise; the highest score wins.
    """
    rng = np.random.default_rng(seed)
    strength = board_strength or {}
    extra = board_skill or {}
    rows = []
    game = 0
    directions = ["strong"] if players == 2 else ["strong", "weak"]
    for setup in range(setups):
        dealt = rng.choice(BOARDS, size=players, replace=False)
        luck = rng.normal(0, setup_sd, size=players)
        setup_skill = skill + rng.normal(0, setup_skill_sd)
        for direction in directions:
            for odd in range(players):
                for turn in range(players):
                    scores, bots, boards = [], [], []
                    for seat in range(players):
                        board = str(dealt[(seat + turn) % players])
                        is_strong = (seat == odd) == (direction == "strong")
                        value = strength.get(board, 0.0) + luck[seat]
                        if is_strong:
                            value += setup_skill + extra.get(board, 0.0)
                        scores.append(value + rng.normal(0, 4.0))
                        bots.append("hi" if is_strong else "lo")
                        boards.append(board)
                    best = int(np.argmax(scores))
                    for seat in range(players):
                        rows.append({
                            "run": f"{direction}-{odd}", "game_id": game,
                            "n_players": players, "seat": seat, "bot": bots[seat],
                            "corporation": boards[seat], "score": scores[seat],
                            "won": seat == best, "group": setup,
                        })  # fmt: skip
                    game += 1
    return pl.DataFrame(rows)


def test_lone_seats_are_the_odd_seat_or_both_seats_at_two_players():
    three = ms.lone_seats(mixed_frame(4, 3), "hi", "lo")
    assert three.height == 4 * 2 * 3 * 3  # one lone seat per game
    assert three.group_by("run", "game_id").len()["len"].max() == 1
    assert set(three.filter(pl.col("run").str.starts_with("strong"))["level"]) == {
        "strong"
    }
    two = ms.lone_seats(mixed_frame(4, 2), "hi", "lo")
    assert two.height == 4 * 2 * 2 * 2  # both seats of every game
    assert sorted(set(two["level"])) == ["strong", "weak"]


def test_one_bot_games_have_no_lone_seats():
    frame = mixed_frame(4, 3).with_columns(bot=pl.lit("hi"))
    assert ms.lone_seats(frame, "hi", "lo").height == 0
    assert ms.mixed_skill(frame, strong="hi", weak="lo").height == 0


def test_known_rates_on_a_hand_made_frame():
    # 2 players, one setup per group; hi wins with board a, loses with b
    rows = []
    for g in range(4):
        for turn, (hi_board, hi_wins) in enumerate((("a", True), ("b", False))):
            game = 2 * g + turn
            lo_board = "b" if hi_board == "a" else "a"
            for seat, (bot, board, won) in enumerate(
                (("hi", hi_board, hi_wins), ("lo", lo_board, not hi_wins))
            ):
                rows.append({"game_id": game, "n_players": 2, "seat": seat,
                             "bot": bot, "corporation": board, "won": won,
                             "group": g})  # fmt: skip
    table = ms.mixed_skill(pl.DataFrame(rows), strong="hi", weak="lo")
    a, b = table.sort("corporation").iter_rows(named=True)
    assert (a["strong_rate"], a["weak_rate"], a["gap"]) == pytest.approx((1, 1, 0))
    assert (b["strong_rate"], b["weak_rate"], b["gap"]) == pytest.approx((0, 0, 0))
    assert a["n_strong"] == a["n_weak"] == 4


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_board_where_skill_pays_more_stands_out_and_board_strength_cancels(players):
    frame = mixed_frame(
        160, players, board_strength={"b": 4.0}, board_skill={"a": 5.0}, seed=players
    )
    table = ms.mixed_skill(frame, strong="hi", weak="lo").sort("excess_ratio")
    top = table.row(-1, named=True)
    assert top["corporation"] == "a"
    assert top["excess_ratio_lower"] > 1 and top["p_value"] < 0.01
    b = table.filter(pl.col("corporation") == "b").row(0, named=True)
    # a strong board wins more in either hands, but skill pays no more with it
    assert b["weak_rate"] > table["weak_rate"].median()
    assert b["p_value"] > 0.01
    for row in table.iter_rows(named=True):
        assert row["strong_lower"] <= row["strong_rate"] <= row["strong_upper"]
        assert row["gap"] == pytest.approx(row["strong_rate"] - row["weak_rate"])
        assert row["odds_ratio_lower"] <= row["odds_ratio"] <= row["odds_ratio_upper"]
    # the excess ratios are centred on the boards' geometric mean
    assert np.log(table["excess_ratio"]).sum() == pytest.approx(0.0, abs=1e-9)
    spread = ms.gap_spread(frame, strong="hi", weak="lo")
    assert spread["p_value"][0] < 0.01


def test_no_board_stands_out_when_skill_pays_alike():
    frame = mixed_frame(120, 3, board_strength={"b": 4.0}, seed=11)
    spread = ms.gap_spread(frame, strong="hi", weak="lo")
    assert spread["p_value"][0] > 0.01
    table = ms.mixed_skill(frame, strong="hi", weak="lo")
    assert (table["p_value"] * table.height > 0.01).all()  # Bonferroni bound
    assert table["strong_rate"].mean() > 1 / 3 > table["weak_rate"].mean()


def test_intervals_are_clustered_over_setups():
    # how much skill pays varies from setup to setup: a setup's games agree
    frame = mixed_frame(60, 3, setup_skill_sd=8.0, seed=2)
    clustered = ms.mixed_skill(frame, strong="hi", weak="lo")
    naive = ms.mixed_skill(
        frame.with_columns(group=pl.int_range(pl.len())), strong="hi", weak="lo"
    )
    width = (clustered["gap_upper"] - clustered["gap_lower"]).mean()
    naive_width = (naive["gap_upper"] - naive["gap_lower"]).mean()
    assert clustered["clusters"][0] == 60
    assert width > naive_width


def test_skill_order_finds_the_stronger_bot():
    frame = mixed_frame(20, 3, seed=4)
    assert ms.skill_order(frame, ["lo", "hi"]) == ("hi", "lo")
    assert ms.skill_order(frame, ["hi", "lo"]) == ("hi", "lo")


def test_a_planted_board_is_declared_and_replicated_and_noise_is_not():
    frame = mixed_frame(200, 3, board_skill={"a": 5.0}, seed=8)
    table = ms.skill_findings(frame, strong="hi", weak="lo")
    assert table["replicable"].all()
    kept = table.filter(pl.col("replicated"))
    assert kept["corporation"].to_list() == ["a"]
    assert kept["excess_conf"][0] > 1.0
    assert (table["p_adjusted"] >= table["p_value"]).all()
    null = ms.skill_findings(mixed_frame(200, 3, seed=9), strong="hi", weak="lo")
    assert not null["replicated"].any()


def test_too_few_setups_declare_nothing():
    table = ms.skill_findings(mixed_frame(6, 3, board_skill={"a": 9.0}), strong="hi",
                              weak="lo")  # fmt: skip
    assert not table["replicable"].any() and not table["declared"].any()


def test_rate_intervals_stay_between_0_and_1():
    # a weak seat that never wins among strong ones: its rate is 0, not below
    frame = mixed_frame(40, 4, skill=12.0, seed=3)
    table = ms.mixed_skill(frame, strong="hi", weak="lo")
    for side in ("strong", "weak"):
        assert (table[f"{side}_lower"] >= 0).all() and (
            table[f"{side}_upper"] <= 1
        ).all()
    assert (table["weak_rate"] < 0.05).any()


def test_the_family_that_gets_more_out_of_a_board_is_named_where_it_replicates():
    """Family "hi" plays board a much better than "lo" does; the other boards
    alike.  The lab report names a, with hi, and no other board."""
    from pu_sim.lab import families

    frame = mixed_frame(700, 3, skill=0.0, board_skill={"a": 6.0}, seed=3)
    games = frame.with_columns(planet=pl.col("corporation"))
    table = families.family_findings(games, "hi", "lo")
    corps = table.filter(pl.col("kind") == "corporation")
    assert corps["name"][0] == "a" and corps["excess_ratio"][0] > 1.5
    assert corps.filter(pl.col("replicated"))["name"].to_list() == ["a"]
    strength = families.lone_strength(games, "hi", "lo")
    text = families.report_text(table=table, strength=strength, a="hi", b="lo",
                                command="c", games=1, left_out=2)  # fmt: skip
    line = next(x for x in text.splitlines() if x.startswith("- **3 players:**"))
    assert line.startswith("- **3 players:** a x") and "(hi gets more)" in line
    assert "corporation" in line or "b x" not in line
    assert "(2 more did not end ok and are left out)" in text


def test_the_families_figure_wraps_five_counts_into_rows_of_three_on_one_scale():
    from pu_sim.lab import families

    parts = []
    for n in (2, 3, 4, 5, 6):
        frame = mixed_frame(60, n, skill=0.0, seed=n)
        games = frame.with_columns(planet=pl.col("corporation"))
        parts.append(families.family_findings(games, "hi", "lo"))
    fig = families.figure(pl.concat(parts), "hi", "lo")
    grids = [ax.get_subplotspec().get_geometry()[:2] for ax in fig.axes]
    assert len(fig.axes) == 5 and set(grids) == {(2, 3)}
    first = fig.axes[0].get_shared_x_axes()
    assert all(first.joined(fig.axes[0], ax) for ax in fig.axes[1:])


def test_the_families_report_computes_which_lone_seat_is_the_stronger():
    """hi plays better at every board: its lone seat wins above the fair
    share, lo's below, both inside their intervals; the report says so from
    the numbers, and an even pair reads even."""
    from pu_sim.lab import families

    games = mixed_frame(300, 3, skill=4.0, seed=5)
    games = games.with_columns(planet=pl.col("corporation"))
    strength = families.lone_strength(games, "hi", "lo")
    rows = {r["bot"]: r for r in strength.iter_rows(named=True)}
    assert rows["hi"]["lower"] > 1 / 3 > rows["lo"]["upper"]
    assert all(r["lower"] < r["mean"] < r["upper"] for r in rows.values())
    table = families.family_findings(games, "hi", "lo")
    text = families.report_text(table=table, strength=strength, a="hi", b="lo",
                                command="c", games=1)  # fmt: skip
    line = next(x for x in text.splitlines() if x.startswith("- **3 players** (fair"))
    assert f"the lone hi seat {rows['hi']['mean']:.1%}" in line
    even = families.lone_strength(mixed_frame(300, 3, skill=0.0, seed=6), "hi", "lo")
    assert all(r["lower"] < 1 / 3 < r["upper"] for r in even.iter_rows(named=True))
