"""Game feel on hand-made score traces and game tables, and on random ones.

Known answers (traces drawn by hand), properties over random round scores,
short games relative to each player count's own lengths, the by-planet family
under Holm, intervals clustered over setups, and the report section.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pu_sim.analysis import feel, stats
from pu_sim.report.page import Page
from pu_sim.report.sections.feel import feel_section


def trace(game_id: int, rounds: list[list[int]]) -> pl.DataFrame:
    """A round score table of one game: ``rounds[r][seat]`` is the score."""
    rows = [
        (game_id, r + 1, seat, score)
        for r, scores in enumerate(rounds)
        for seat, score in enumerate(scores)
    ]
    return pl.DataFrame(
        rows, schema=["game_id", "round", "seat", "score"], orient="row"
    )


# ---------------------------------------------------------------- the schema


def test_a_valid_table_comes_back_in_the_schema_sorted():
    table = trace(3, [[1, 2], [5, 4]]).reverse()
    out = feel.validate_round_scores(table)
    assert out.schema == pl.Schema(feel.ROUND_SCORE_SCHEMA)
    assert out["round"].to_list() == [1, 1, 2, 2]
    with_run = feel.validate_round_scores(table.with_columns(run=pl.lit("x")))
    assert "run" in with_run.columns


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.drop("seat"), "lacks column"),
        (lambda t: t.with_columns(pl.col("score").cast(pl.Float64)), "integers"),
        (lambda t: t.with_columns(score=pl.lit(None, pl.Int64)), "nulls"),
        (lambda t: t.with_columns(pl.col("round") - 1), "outside 1..255"),
        (lambda t: pl.concat([t, t.head(1)]), "two rows for round 1, seat 0"),
        (lambda t: t.filter(pl.col("round") != 2), "without a gap"),
        (lambda t: t.filter(~((pl.col("round") == 3) & (pl.col("seat") == 1))),
         "lacks a seat"),
    ],
)  # fmt: skip
def test_bad_tables_are_refused_with_a_reason(change, message):
    table = trace(7, [[1, 2], [3, 4], [5, 6]])
    with pytest.raises(ValueError, match=message):
        feel.validate_round_scores(change(table))


# ---------------------------------------------------------------- lead changes


@pytest.mark.parametrize(
    ("rounds", "changes", "leader"),
    [
        ([[5, 3], [6, 6], [7, 9], [12, 10]], 2, 0),  # a tie passes nothing on
        ([[5, 3], [6, 6], [9, 7]], 0, 0),  # lead lost to a tie and regained
        ([[4, 4], [4, 6], [8, 7]], 1, 0),  # the first sole leader is no change
        ([[1, 2, 3], [4, 2, 3], [4, 9, 3], [4, 9, 9]], 2, None),  # ends tied
        ([[2, 1]], 0, 0),
    ],
)
def test_lead_changes_known_traces(rounds, changes, leader):
    out = feel.lead_changes(trace(0, rounds)).row(0, named=True)
    assert out["lead_changes"] == changes
    assert out["final_leader"] == leader
    assert out["rounds"] == len(rounds) and out["n_players"] == len(rounds[0])


def test_lead_change_summary_per_player_count():
    table = pl.concat([
        trace(0, [[5, 3], [6, 6], [7, 9], [12, 10]]),  # 2 changes
        trace(1, [[5, 3], [6, 2]]),  # none
        trace(2, [[1, 2, 3], [4, 2, 3]]),  # 3 players, 1 change
    ])  # fmt: skip
    out = feel.lead_change_summary(table)
    assert out["n_players"].to_list() == [2, 3]
    assert out["games"].to_list() == [2, 1]
    assert out["mean"].to_list() == [1.0, 1.0]
    assert out["share_none"].to_list() == [0.5, 0.0]


def test_setups_must_name_every_game_of_the_round_scores():
    table = pl.concat([trace(0, [[5, 3]]), trace(1, [[1, 2]])])
    setups = pl.DataFrame({"game_id": [0], "group": [0]})
    with pytest.raises(ValueError, match=r"game 1 .* no 'group'"):
        feel.lead_change_summary(table, setups=setups)


def test_setups_without_the_cluster_column_are_refused_naming_it():
    table = pl.concat([trace(0, [[5, 3]]), trace(1, [[1, 2]])])
    setups = pl.DataFrame({"game_id": [0, 1], "setup": [0, 1]})
    with pytest.raises(ValueError, match=r"setups lacks column\(s\) \['group'\]"):
        feel.lead_change_summary(table, setups=setups, cluster="group")


# ---------------------------------------------------------------- comeback, decisive


@pytest.mark.parametrize(
    ("rounds", "expected"),
    [
        # Seat 1 trails by 2, 3 and 7 (its worst, after round 3), ties in round
        # 4 (no sole leader) and leads from round 5 to the end: round 5 of 6.
        ([[5, 3], [9, 6], [17, 10], [20, 20], [24, 27], [30, 36]],
         (1, 7, 3, 5, 5 / 6)),
        ([[3, 1], [6, 2], [9, 8]], (0, 0, None, 1, 1 / 3)),  # led throughout
        ([[4, 4], [8, 5], [9, 6]], (0, 0, None, 2, 2 / 3)),  # shared lead: no lead
        ([[6, 2], [6, 10], [12, 10]], (0, 4, 2, 3, 1.0)),  # lost, won back last
        ([[1, 6], [9, 14], [20, 18]], (0, 5, 1, 3, 1.0)),  # worst twice: the first
        # Against the leader, not the runner-up: seat 1 is 6 behind seat 0, then
        # 9 behind seat 2 while seat 0 is second.
        ([[10, 4, 7], [12, 4, 13], [14, 20, 15]], (1, 9, 2, 3, 1.0)),
        ([[2, 1]], (0, 0, None, 1, 1.0)),  # one round
    ],
)  # fmt: skip
def test_comeback_and_decisive_round_known_traces(rounds, expected):
    out = feel.comeback_decisiveness(trace(0, rounds)).row(0, named=True)
    got = tuple(out[k] for k in ("winner", "comeback", "comeback_round",
                                 "decisive_round", "decisive_share"))  # fmt: skip
    assert got == pytest.approx(expected)
    assert out["rounds"] == len(rounds) and out["n_players"] == len(rounds[0])


def test_a_game_tied_for_first_has_no_winner_and_is_left_out():
    table = pl.concat([
        trace(0, [[5, 3], [9, 9]]),  # tied for first on points
        trace(1, [[5, 3], [6, 9]]),  # seat 1 comes back from 2 down
    ])  # fmt: skip
    per_game = feel.comeback_decisiveness(table)
    tied = per_game.row(0, named=True)
    assert tied["winner"] is None and tied["comeback"] is None
    assert tied["decisive_round"] is None
    summary = feel.comeback_summary(table)
    assert summary["measure"].to_list() == list(feel.MEASURES)
    assert (summary["games"] == 1).all() and (summary["tied"] == 1).all()
    comeback = summary.filter(pl.col("measure") == "comeback").row(0, named=True)
    assert comeback["mean"] == 2.0


def reference_path(rounds: list[list[int]]) -> tuple | None:
    """The definitions, read literally: (winner, comeback, its round, decisive)."""
    last = rounds[-1]
    if last.count(max(last)) != 1:
        return None
    w = last.index(max(last))
    deficits = [max(r) - r[w] for r in rounds]
    comeback = max(deficits)
    worst = deficits.index(comeback) + 1 if comeback > 0 else None
    sole = [r[w] == max(r) and r.count(max(r)) == 1 for r in rounds]
    decisive = next(r for r in range(1, len(rounds) + 1) if all(sole[r - 1 :]))
    return w, comeback, worst, decisive


score_tables = st.integers(2, 5).flatmap(
    lambda seats: st.lists(
        st.lists(st.integers(-5, 60), min_size=seats, max_size=seats),
        min_size=1,
        max_size=12,
    )
)


@given(score_tables)
def test_comeback_and_decisive_round_on_random_scores(rounds):
    out = feel.comeback_decisiveness(trace(0, rounds)).row(0, named=True)
    expected = reference_path(rounds)
    if expected is None:
        assert out["winner"] is None and out["decisive_round"] is None
        return
    got = (out["winner"], out["comeback"], out["comeback_round"],
           out["decisive_round"])  # fmt: skip
    assert got == expected
    assert 1 <= out["decisive_round"] <= out["rounds"] == len(rounds)
    assert 0 < out["decisive_share"] <= 1
    assert out["comeback"] >= 0
    if out["comeback"] > 0:  # behind then, so not yet leading for good
        assert out["comeback_round"] < out["decisive_round"]


@given(score_tables, st.data())
def test_a_winner_who_led_throughout_has_no_comeback_and_round_one(rounds, data):
    leader = data.draw(st.integers(0, len(rounds[0]) - 1))
    led = [
        [s + (max(r) - r[leader] + 1 if seat == leader else 0) for seat, s in
         enumerate(r)]
        for r in rounds
    ]  # fmt: skip
    out = feel.comeback_decisiveness(trace(0, led)).row(0, named=True)
    assert out["winner"] == leader
    assert out["comeback"] == 0 and out["comeback_round"] is None
    assert out["decisive_round"] == 1


# ---------------------------------------------------------------- result frames


def games_table(
    spec: list[tuple[int, int, int, str, list[str], list[int]]],
) -> pl.DataFrame:
    """Rows per seat from (game, n_players, rounds, trigger, planets, scores)."""
    rows = [
        (g, seat, n, planet, score, rounds, trigger)
        for g, n, rounds, trigger, planets, scores in spec
        for seat, (planet, score) in enumerate(zip(planets, scores, strict=True))
    ]
    return pl.DataFrame(
        rows,
        schema=["game_id", "seat", "n_players", "planet", "score", "rounds",
                "end_trigger"],
        orient="row",
    )  # fmt: skip


GAMES = games_table([
    (0, 2, 20, "events", ["North", "South"], [50, 44]),
    (1, 2, 5, "cannot_place", ["Cerberus", "South"], [30, 30]),
    (2, 2, 6, "cannot_place", ["Cerberus", "Cerberus"], [28, 35]),
    (3, 2, 18, "depot_empty", ["North", "East"], [61, 40]),
    (4, 1, 20, "events", ["North"], [58]),
])  # fmt: skip


def test_victory_margins_first_minus_second():
    out = feel.victory_margins(GAMES)
    assert out["margin"].to_list() == [6, 0, 7, 21]  # the solo game has none
    summary = feel.margin_summary(GAMES).row(0, named=True)
    assert summary["games"] == 4 and summary["mean"] == 8.5
    assert summary["share_tied"] == 0.25 and summary["max"] == 21


def test_game_length_by_player_count_and_trigger():
    # Half of the 2-player games: rounds 5 and 6, so the cut is round 17
    # (the last round before the next game's 18).
    out = feel.game_length(GAMES, share=0.5)
    assert out.select(
        "n_players", "end_trigger", "games", "share", "cut", "short"
    ).rows() == [
        (1, "events", 1, 1.0, 19, 0),
        (2, "cannot_place", 2, 0.5, 17, 2),
        (2, "depot_empty", 1, 0.25, 17, 0),
        (2, "events", 1, 0.25, 17, 0),
    ]
    cannot = out.filter(pl.col("end_trigger") == "cannot_place").row(0, named=True)
    assert cannot["mean_rounds"] == 5.5 and cannot["min_rounds"] == 5


def test_short_endings_by_cause():
    out = feel.short_endings(GAMES, share=0.5).filter(pl.col("n_players") == 2)
    assert out.select("cause", "games", "short", "rate").rows() == [
        ("any", 4, 2, 0.5),
        ("cannot_place", 4, 2, 0.5),
    ]
    assert (out["lower"] <= out["rate"]).all() and (out["rate"] <= out["upper"]).all()


def test_short_endings_by_planet_present():
    """Cerberus sits in games 1 and 2 (twice in game 2: counted once), both
    short; North in games 0 and 3, neither short."""
    out = feel.short_endings(GAMES, by="planet", share=0.5)
    out = out.filter(pl.col("n_players") == 2)
    rows = out.select("planet", "games", "short", "rate", "rate_without",
                      "difference").rows()  # fmt: skip
    assert rows == [
        ("Cerberus", 2, 2, 1.0, 0.0, 1.0),
        ("East", 1, 0, 0.0, 2 / 3, -2 / 3),
        ("North", 2, 0, 0.0, 1.0, -1.0),
        ("South", 2, 1, 0.5, 0.5, 0.0),
    ]


# ---- short is relative to each player count


def length_frame(
    rounds: dict[int, np.ndarray],
    *,
    planets: list[str] | None = None,
    group_size: int | None = None,
    seed: int = 0,
) -> pl.DataFrame:
    """One row per seat: ``rounds[n]`` are the n-player games' lengths.

    Planets (when given) are dealt per setup (``group``: ``group_size``
    consecutive games, default one per seat, share their planets and play
    them rotated), as in the paired design.
    """
    rng = np.random.default_rng(seed)
    frames, offset = [], 0
    for n, lengths in rounds.items():
        k = group_size or n
        g = np.arange(lengths.size) + offset
        game = np.repeat(g, n)
        frame = pl.DataFrame({
            "game_id": game, "seat": np.tile(np.arange(n), lengths.size),
            "n_players": n, "rounds": np.repeat(lengths, n),
            "end_trigger": "cannot_place", "group": game // k,
            "score": rng.integers(30, 70, game.size),
        })  # fmt: skip
        if planets:
            deal = {grp: rng.choice(len(planets), n, replace=False)
                    for grp in np.unique(game // k)}  # fmt: skip
            frame = frame.with_columns(
                planet=pl.Series([planets[deal[i // k][(s + i) % n]] for i, s in
                                  zip(game, frame["seat"], strict=True)])
            )  # fmt: skip
        frames.append(frame)
        offset += lengths.size
    return pl.concat(frames, how="diagonal_relaxed")


def test_short_games_are_a_tenth_of_each_player_count_however_long_it_runs():
    rng = np.random.default_rng(7)
    frame = length_frame({
        2: np.rint(rng.normal(24, 2.0, 4000)).astype(int),  # past 20 nearly always
        4: np.rint(rng.normal(15, 3.0, 4000)).astype(int),  # before 20 nearly always
    })  # fmt: skip
    cuts = feel.short_cuts(frame)
    assert cuts["share_short"].to_list() == pytest.approx([0.1, 0.1], abs=0.03)
    two, four = cuts["cut"].to_list()
    assert 19 <= two <= 22 and 9 <= four <= 12
    # a fixed round 20 would call 2% of one and 95% of the other "short"
    fixed = (
        frame.group_by("n_players")
        .agg((pl.col("rounds") < 20).mean())
        .sort("n_players")["rounds"]
        .to_list()
    )
    assert fixed[0] < 0.05 and fixed[1] > 0.9
    by_cause = feel.short_endings(frame).filter(pl.col("cause") == "any")
    assert by_cause["rate"].to_list() == cuts["share_short"].to_list()


@given(st.lists(st.integers(1, 30), min_size=1, max_size=60),
       st.floats(0.05, 0.95))  # fmt: skip
def test_the_cut_is_the_nearest_whole_round_to_the_share(lengths, share):
    frame = length_frame({3: np.array(lengths)})
    row = feel.short_cuts(frame, share=share).row(0, named=True)
    rounds = np.array(lengths)
    assert row["short"] == int((rounds <= row["cut"]).sum())
    best = min(abs((rounds <= t).mean() - share) for t in range(0, 31))
    assert abs(row["share_short"] - share) == pytest.approx(best, abs=1e-12)
    assert row["cut"] + 1 in rounds or row["cut"] == rounds.max()  # latest name


def test_solo_games_cut_short_of_the_event_deck_are_the_short_ones():
    lengths = np.array([20] * 92 + [12, 14, 15, 16, 17, 18, 19, 19])
    frame = length_frame({1: lengths}).with_columns(
        end_trigger=pl.when(pl.col("rounds") == 20).then(pl.lit("events"))
        .otherwise(pl.lit("cannot_place"))
    )  # fmt: skip
    assert feel.short_cuts(frame).select("cut", "short").row(0) == (19, 8)


# ---- the by-planet family under Holm

PLANETS = ["Gaia", "Petra", "Cerberus", "Lacuna", "K-273", "Oblivion", "Tartarus",
           "Arashi", "Charybdis", "Aquaria", "Pumpkin", "Novus", "Zed"]  # fmt: skip


def planet_frame(seed: int, short_with: str | None = None) -> pl.DataFrame:
    """2, 4 and 6 players, 1,200 games each, planets dealt per setup; lengths
    shared in part by a setup's games, shorter by 3 rounds with ``short_with``."""
    rng = np.random.default_rng(seed)
    lengths = {}
    for n in (2, 4, 6):
        setup = np.repeat(rng.normal(0, 1.5, 1200 // n), n)
        lengths[n] = np.rint(20 + setup + rng.normal(0, 1.5, 1200)).astype(int)
    frame = length_frame(lengths, planets=PLANETS, seed=seed)
    if short_with is None:
        return frame
    has = pl.col("planet").cast(pl.String).eq(short_with).any().over("game_id")
    return frame.with_columns(
        rounds=pl.when(has).then(pl.col("rounds") - 3).otherwise(pl.col("rounds"))
    )


def test_no_planet_is_flagged_when_none_has_an_effect():
    out = feel.short_endings(planet_frame(3), by="planet")
    assert out.height == 3 * len(PLANETS)
    # uncorrected, some comparisons would pass: the family is what keeps them out
    assert (out["p_value"] < 0.05).sum() >= 2
    assert not out["significant"].any()
    family = stats.holm(out["p_value"].to_numpy())  # one family over every count
    assert out["p_adjusted"].to_numpy() == pytest.approx(family)


def test_a_planet_that_shortens_games_is_flagged_at_every_count():
    out = feel.short_endings(planet_frame(3, short_with="Gaia"), by="planet")
    flagged = out.filter(pl.col("significant"))
    assert flagged.filter(pl.col("planet") == "Gaia").height == 3
    assert (flagged.filter(pl.col("planet") == "Gaia")["difference"] > 0.15).all()
    assert flagged.filter(pl.col("planet") != "Gaia").height <= 3  # by chance


# ---- intervals over setups


def copies(frame: pl.DataFrame, k: int) -> pl.DataFrame:
    """Every game played ``k`` times over as one setup: perfectly correlated."""
    return pl.concat(
        frame.with_columns(game_id=pl.col("game_id") * k + i, group=pl.col("game_id"))
        for i in range(k)
    )


def test_perfectly_correlated_setups_widen_every_interval():
    rng = np.random.default_rng(11)
    base = length_frame({3: rng.integers(14, 24, 300)}, group_size=1, seed=2).drop(
        "group"
    )
    paired = copies(base, 4)
    naive = paired.drop("group")  # the same games, each counted as independent

    def width(table: pl.DataFrame) -> np.ndarray:
        return (table["upper"] - table["lower"]).to_numpy()

    for fn in (feel.margin_summary, feel.short_endings):
        clustered, games = fn(paired), fn(naive)
        assert (clustered["clusters"] == 300).all() and (
            games["clusters"] == 1200
        ).all()
        assert width(clustered) == pytest.approx(2 * width(games), rel=0.02)  # sqrt 4
        assert clustered["design_effect"].to_numpy() == pytest.approx(4.0)

    scores = pl.concat(
        trace(g, [[r, 10 - r, 5] for r in range(int(v) % 7 + 1)] + [[1, 9, 0]])
        for g, v in enumerate(rng.integers(0, 100, 300))
    )  # fmt: skip
    scores = copies(scores, 4)
    setups = scores.select("game_id", "group").unique()
    clustered = feel.comeback_summary(scores.drop("group"), setups=setups)
    games = feel.comeback_summary(scores.drop("group"))
    rows = clustered["lower"].is_not_nan()
    assert rows.sum() >= 3
    assert width(clustered.filter(rows)) == pytest.approx(
        2 * width(games.filter(rows)), rel=0.02
    )


# ---------------------------------------------------------------- the section


def section_frames(short_with: str | None, bot: str = "some_bot"):
    """The primary bot's games (with setups) and their round scores."""
    games = planet_frame(5, short_with).with_columns(
        run=pl.lit("r"), bot=pl.lit(bot), n_bots=pl.lit(1),
        game_id=pl.col("game_id").cast(pl.UInt64),
    )  # fmt: skip
    finals = games.select("game_id", "seat", "score", "rounds").filter(
        pl.col("game_id") % 4 == 0
    )
    rounds = (
        finals.with_columns(round=pl.int_ranges(1, pl.col("rounds") + 1))
        .explode("round")
        .with_columns(
            score=pl.col("score") * pl.col("round") // pl.col("rounds")
            + (pl.col("seat") * pl.col("round")) % 5,
            run=pl.lit("r"),
        )
        .with_columns(  # the last round is the final score
            score=pl.when(pl.col("round") == pl.col("rounds"))
            .then(pl.col("score") - (pl.col("seat") * pl.col("round")) % 5)
            .otherwise(pl.col("score"))
        )
        .select("run", "game_id", "round", "seat", "score")
    )
    return games, rounds


@pytest.mark.parametrize("short_with", [None, "Gaia"])
def test_the_section_says_what_its_labels_mean_and_names_the_bot(tmp_path, short_with):
    games, rounds = section_frames(short_with)
    page = Page(out=tmp_path)
    feel_section(page, games, "some_bot", rounds)
    (text,) = page.sections
    assert text.startswith("## Game feel and length (some_bot)")
    assert "cluster-robust t interval over setups" in text
    for term, meaning in feel.GLOSSARY.items():
        assert f"**{term}**: {meaning}." in text
    assert "early" not in text.replace("earlier", "").lower()
    assert "in some_bot's games" in text and "**Comeback and decisive round**" in text
    assert f"one family of {3 * len(PLANETS)} (player count, planet)" in text
    for name in ("feel_comeback", "feel_decisive", "feel_length"):
        assert (tmp_path / "figures" / f"{name}.png").exists()
    comeback = pl.read_csv(tmp_path / "tables" / "feel_comeback.csv")
    assert comeback["n_players"].unique().sort().to_list() == [2, 4, 6]
    headlines = "\n".join(page.headlines)
    assert "**Comebacks, 4 players (some_bot):**" in headlines
    if short_with is None:
        assert "no planet changes it" in text
        assert "**Short games (some_bot):** no planet" in headlines
    else:
        assert "| 2 | Gaia |" in text
        assert (
            "**Short games, 2 players (some_bot):** games are short more often "
            "with Gaia" in headlines
        )


def test_the_section_without_round_scores_says_so(tmp_path):
    games, _ = section_frames(None)
    page = Page(out=tmp_path)
    feel_section(page, games, "some_bot", None)
    assert "kept no round score table" in page.sections[0]
    assert not (tmp_path / "figures" / "feel_comeback.png").exists()
