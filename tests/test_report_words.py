"""The conclusion words a report prints, table-tested against known inputs.

A report's value is in its verdict and direction words: a frame with a known
effect must print exactly the word that effect implies.  Covered: the verdict
labels (robust, bot-dependent, unresolved) in the one-look table and its
headline, in both directions; the single-policy wording; the seat headline
with and without a first-player edge; the board headline (no difference, the
differing labels, the extremes only, a single label); the survival statuses
of a weaker bot's findings; the solo calibration words (consistent, missing
adjustment, wrong direction, over- and under-corrects; even or not even;
above or below a published entry); the variance-ratio words; who played.
"""

from __future__ import annotations

import math
import re

import polars as pl
import pytest
from synthetic_games import multiplayer_frame

from pu_sim import analysis
from pu_sim.analysis import stats, verdicts
from pu_sim.analysis.solo_decks import CardFormula
from pu_sim.report import plots
from pu_sim.report.markdown import ratio_words
from pu_sim.report.page import Page
from pu_sim.report.policies import Policies
from pu_sim.report.sections import boards, calibration, seats, solo_paired, survival
from pu_sim.report.sections import verdicts as section_verdicts
from pu_sim.report.sections.verdicts import verdict_section

# ---- the label rule ------------------------------------------------------------

SIG_UP, SIG_DOWN = (2.0, 1.0, 3.0), (-2.0, -3.0, -1.0)
NOISE = (0.3, -0.7, 1.3)  # not significant, near zero
NEAR = (1.0, -0.1, 2.1)  # not significant, not shown to differ from SIG_UP
FAR = (-0.5, -1.5, 0.5)  # not significant, the other sign, its interval below SIG_UP
SMALLER = (0.5, -0.1, 1.1)  # not significant, same sign, its interval below SIG_UP


@pytest.mark.parametrize(
    ("a", "b", "label"),
    [
        (SIG_UP, SIG_UP, "robust"),
        (SIG_DOWN, SIG_DOWN, "robust"),
        (SIG_UP, SIG_DOWN, "bot-dependent"),
        (SIG_DOWN, SIG_UP, "bot-dependent"),
        (SIG_UP, FAR, "bot-dependent"),
        (FAR, SIG_UP, "bot-dependent"),
        (SIG_UP, NEAR, "unresolved"),
        (NEAR, SIG_UP, "unresolved"),
        (NOISE, NOISE, "unresolved"),
        (NOISE, FAR, "unresolved"),
        (SIG_UP, SMALLER, "unresolved"),  # a size, not a direction, differs
        (SMALLER, SIG_UP, "unresolved"),
    ],
)
def test_every_verdict_label_for_a_known_pair_of_effects(a, b, label):
    assert verdicts.finding_labels(*([v] for v in (*a, *b))) == [label]


# ---- the one-look table and its headline -------------------------------------------

# every game deals all four corporations (4 players): Alpha strong and Delta
# weak under both bots; Beta and Gamma strong under one bot and weak under the
# other; the planets fair under both.  (Effects of a few points: a label that
# never wins has no variance over setups, which is no evidence either way.)
EFFECTS_A = {"Alpha Corp": 4, "Beta Corp": 4, "Gamma Corp": -4, "Delta Corp": -4}
EFFECTS_B = {"Alpha Corp": 4, "Beta Corp": -4, "Gamma Corp": 4, "Delta Corp": -4}


def policy_games(bot: str, effects: dict[str, float], n: int = 1200) -> pl.DataFrame:
    frame = multiplayer_frame(n, 4, corp_effect=effects, group_size=4, setup_sd=2,
                              bot=bot, seed=21)  # fmt: skip
    return frame.with_columns(
        pl.col("bot").cast(pl.String), group=pl.col("game_id") // 4
    )


HOMO = pl.concat([policy_games("first", EFFECTS_A), policy_games("second", EFFECTS_B)])


@pytest.fixture(scope="module")
def two_policy_page(tmp_path_factory):
    page = Page(tmp_path_factory.mktemp("verdicts"))
    table = verdict_section(page, HOMO, Policies("first", "second"))
    return page, table


def table_cells(page: Page) -> dict[str, list[str]]:
    """The one-look Markdown table's rows by name (the cells after it)."""
    rows = {}
    for line in "\n".join(page.opening).splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) > 2 and cells[0] in ("corporation", "planet"):
            rows[cells[1]] = cells
    return rows


def test_the_verdict_column_prints_each_label(two_policy_page):
    page, table = two_policy_page
    labels = dict(zip(table["name"], table["label"], strict=True))
    assert labels == {
        "Alpha Corp": "robust", "Beta Corp": "bot-dependent",
        "Gamma Corp": "bot-dependent", "Delta Corp": "robust",
        # a fair planet, declared by chance on one half (the two bots' frames
        # share their seed, so they share its luck): the other half refutes it
        "North": "not replicated", "South": "unresolved", "East": "unresolved",
    }  # fmt: skip
    cells = table_cells(page)
    for name, label in labels.items():
        size = " (size differs)" if label == "bot-dependent" else ""
        assert cells[name][4] == f"**{label}**{size}", name  # win verdict, in bold
        score = table.filter(pl.col("name") == name)["score_label"][0]
        assert cells[name][8] == f"*{score}*", name  # score verdict, in italics
        declared = table.filter(pl.col("name") == name)["declared"][0]
        assert (cells[name][5] == "–") == (declared == "unresolved"), name


def test_the_headline_states_robust_findings_both_ways_and_counts_the_rest(
    two_policy_page,
):
    page, _ = two_policy_page
    (headline,) = [h for h in page.headlines if h.startswith("**Robust at")]
    pp = r"[+-]\d+\.\d"
    expected = (
        r"\*\*Robust at 4 players\*\* \(declared on half of the setups under first "
        r"and second, confirmed on the other half; win rate - 1/n on the confirming "
        r"half\): "
        r"Alpha Corp \+\d+\.\d pp \(first\) / \+\d+\.\d pp \(second\); "
        r"Delta Corp -\d+\.\d pp \(first\) / -\d+\.\d pp \(second\)\. "
        r"Not findings: 2 bot-dependent \(Beta Corp, Gamma Corp\), "
        r"1 not replicated \(North\), 2 unresolved of 7\."
    )
    assert re.fullmatch(expected, headline), headline
    assert re.search(pp, headline)


def test_the_win_and_score_verdicts_each_print_in_their_own_column():
    # a hand-made one-look row whose two verdicts differ
    row = {"n_players": 3, "kind": "corporation", "name": "Alpha Corp",
           "win_pp_a": 5.0, "win_lower_a": 1.0, "win_upper_a": 9.0,
           "win_pp_b": 4.0, "win_lower_b": 1.0, "win_upper_b": 7.0,
           "label": "robust", "declared": "robust", "win_conf_a": 4.5,
           "win_conf_b": 3.5, "size_differs": False, "score_a": 0.5,
           "score_lower_a": -0.5,
           "score_upper_a": 1.5, "score_b": 0.2, "score_lower_b": -0.8,
           "score_upper_b": 1.2, "score_label": "unresolved"}  # fmt: skip
    text = section_verdicts._md(pl.DataFrame([row]), "first", "second")
    header, _, cells = (line.strip("|").split("|") for line in text.splitlines())
    got = dict(
        zip((h.strip() for h in header), (c.strip() for c in cells), strict=True)
    )
    assert got["verdict"] == "**robust**"
    assert got["confirming half, pp (a / b)"] == "+4.5 / +3.5"
    assert got["score verdict"] == "*unresolved*"
    assert got["win - 1/n, pp (first)"] == "+5.0 [+1.0, +9.0]"
    assert got["score vs table, points (second)"] == "+0.2 [-0.8, +1.2]"


def test_one_policy_labels_nothing_robust(tmp_path):
    page = Page(tmp_path)
    verdict_section(page, HOMO.filter(pl.col("bot") == "first"), Policies("first"))
    assert page.headlines == [
        "**Balance (first only):** no second policy played these setups, so no "
        "corporation or planet finding is labelled robust."
    ]
    opening = "\n".join(page.opening)
    assert "## Verdicts at a glance (first)" in opening
    header = next(line for line in opening.splitlines() if line.startswith("| kind"))
    assert (
        header
        == "| kind | name | win - 1/n, pp (first) | score vs table, points (first) |"
    )
    assert "**robust**" not in opening and "No second policy played" in opening


def test_no_policy_no_verdicts(tmp_path):
    page = Page(tmp_path)
    assert verdict_section(page, HOMO, Policies(None)) is None
    assert page.headlines == [] and page.opening == []


# ---- survival of a weaker bot's findings -----------------------------------------


def test_every_survival_status_of_a_weaker_bots_finding():
    # the weak bot sees every corporation's effect (4 players, +-4 points)
    weak = policy_games("weak", EFFECTS_A, n=400)
    verdict_rows = [
        ("corporation", "Alpha Corp", 20.0, 20.0, "robust"),  # same way: survives
        ("corporation", "Beta Corp", -20.0, -20.0, "robust"),  # opposite: contradicted
        ("corporation", "Gamma Corp", -20.0, 20.0, "bot-dependent"),  # contradicted
        ("corporation", "Delta Corp", -1.0, 1.0, "unresolved"),  # not confirmed
        ("planet", "North", 9.0, 9.0, "robust"),  # weak bot sees nothing: missed
        ("planet", "South", 0.0, 0.0, "unresolved"),  # nothing either way: absent
        ("planet", "East", 0.0, 0.0, "bot-dependent"),  # weak sees nothing: absent
    ]
    strong = pl.DataFrame(
        [(4, *r) for r in verdict_rows],
        schema=["n_players", "kind", "name", "win_pp_a", "win_pp_b", "label"],
        orient="row",
    ).with_columns(pl.col("n_players").cast(pl.UInt8))
    table = survival.survival_table(weak, strong)
    status = dict(zip(table["name"], table["status"], strict=True))
    assert status == {
        "Alpha Corp": "survives", "Beta Corp": "contradicted",
        "Gamma Corp": "contradicted", "Delta Corp": "not confirmed", "North": "missed",
    }  # fmt: skip


# ---- seats -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("edge", "games", "differs"),
    [(0.0, 600, False), (1.0, 300, False), (8.0, 600, True)],
    ids=["no edge", "a weak edge (Holm p near 0.1)", "a clear edge"],
)
def test_the_seat_headline_names_a_first_player_edge_only_when_there_is_one(
    tmp_path, edge, games, differs
):
    frame = multiplayer_frame(games, 3, seat_effect=[edge, 0, 0], group_size=3,
                              setup_sd=4, seed=5)  # fmt: skip
    homo = frame.with_columns(
        pl.col("bot").cast(pl.String), group=pl.col("game_id") // 3
    )
    page = Page(tmp_path)
    table = seats.seat_section(page, homo)
    (headline,) = page.headlines
    assert headline.startswith(
        "**Seats, 3 players (greedy):** the first commander (seat 0) wins "
    )
    if edge == 1.0:  # the boundary matters here: significant means p < 0.05
        assert 0.05 < table["p_adjusted"].min() < 0.5
    if differs:
        marker = "declared on half of the setups and confirmed on the other: "
        assert headline.split(marker)[1].startswith("seat 0 (first commander) ")
        assert table.filter(pl.col("seat") == 0)["replicated"].item()
    else:
        assert "; no seat's win rate differs from 1/3 on both halves" in headline
        assert not table["replicated"].any()
    # the rotated setups share their luck, so pairing inside games helps
    section = page.sections[0]
    assert "pairing cut the variance" in section


def test_a_bots_seat_findings_do_not_depend_on_the_other_bots_played(tmp_path):
    """Each bot's seat table is its own Holm family: a third bot with many
    p-values (four players, no edge) leaves the first bot's table as it was."""
    one = multiplayer_frame(300, 3, seat_effect=[1.5, 0, 0], group_size=3,
                            setup_sd=4, seed=5)  # fmt: skip
    other = multiplayer_frame(600, 4, group_size=4, bot="other", seed=6)

    def homo(frame, run):
        return frame.with_columns(
            pl.col("bot").cast(pl.String),
            run=pl.lit(run),
            group=pl.col("game_id").cast(pl.Int64) // pl.col("n_players").cast(pl.Int64)
            + 10_000 * int(run == "other"),
        )

    alone = seats.seat_section(Page(tmp_path / "a"), homo(one, "one"))
    both = pl.concat([homo(one, "one"), homo(other, "other")], how="diagonal_relaxed")
    table = seats.seat_section(Page(tmp_path / "b"), both)
    mine = table.filter(pl.col("bot") == "greedy").select(alone.columns)
    assert mine.equals(alone)
    assert 0.0 < alone["p_adjusted"].min() < 1.0  # a Holm that a bigger family moves


def test_each_bot_panel_of_a_seat_figure_reads_one_x_scale(tmp_path, monkeypatch):
    """One panel per bot, and one x scale for the figure: a bot with the larger
    seat effects must not get a scale of its own."""
    drawn = {}
    save = plots.save

    def keep(fig, path, **kwargs):
        drawn[path.name] = fig
        return save(fig, path, **kwargs)

    monkeypatch.setattr(plots, "save", keep)
    small = multiplayer_frame(300, 3, group_size=3, seed=5)
    large = multiplayer_frame(300, 3, seat_effect=[9.0, 0, -9.0], group_size=3,
                              bot="other", seed=6)  # fmt: skip
    frames = [f.with_columns(pl.col("bot").cast(pl.String), run=pl.lit(run))
              for f, run in ((small, "small"), (large, "large"))]  # fmt: skip
    both = pl.concat(frames, how="diagonal_relaxed").with_columns(
        group=pl.col("game_id").cast(pl.Int64) // 3
        + 10_000 * (pl.col("bot") == "other").cast(pl.Int64),
    )
    seats.seat_section(Page(tmp_path), both)
    for name in ("seat_win_rate.png", "seat_score.png"):
        axes = drawn[name].axes
        assert len(axes) == 2 and len({ax.get_xlim() for ax in axes}) == 1, name


def test_the_seat_headline_says_when_too_few_setups_to_replicate(tmp_path):
    frame = multiplayer_frame(18, 3, seat_effect=[8.0, 0, 0], group_size=3, seed=5)
    homo = frame.with_columns(
        pl.col("bot").cast(pl.String), group=pl.col("game_id") // 3
    )
    page = Page(tmp_path)
    table = seats.seat_section(page, homo)
    (headline,) = page.headlines
    assert "too few setups (under 4 per half)" in headline
    assert "not replicated" not in headline
    assert not table["replicated"].any()


# ---- boards ------------------------------------------------------------------------


def board_headline(tmp_path, effects: dict[str, float], corps=None) -> list[str]:
    kw = {"corporations": corps} if corps else {}
    frame = multiplayer_frame(600, 3, corp_effect=effects, group_size=3, seed=8, **kw)
    homo = frame.with_columns(
        pl.col("bot").cast(pl.String), group=pl.col("game_id") // 3
    )
    page = Page(tmp_path)
    boards.label_balance(page, homo, "corporation", "Corporations", False)
    return page.headlines + page.sections


def test_no_corporation_differs(tmp_path):
    headline = board_headline(tmp_path, {})[0]
    assert headline == (
        "**Corporations:** no corporation's win rate differs from 1/n at any player "
        "count after Holm correction (4 comparisons)."
    )


def test_the_differing_corporations_are_named_strongest_first(tmp_path):
    headline = board_headline(tmp_path, {"Alpha Corp": 4, "Delta Corp": -4})[0]
    assert headline.startswith(
        "**Corporations:** 2 of 4 win rates differ from 1/n after Holm correction: "
        "Alpha Corp at 3p: "
    )
    assert "; Delta Corp at 3p: " in headline and headline.endswith(" vs 33.3%.")


def test_many_differing_corporations_name_the_extremes(tmp_path):
    names = [f"Corp {k}" for k in range(8)]
    effects = {n: (8 - 2 * k) for k, n in enumerate(names)}  # +8 .. -6
    headline = board_headline(tmp_path, effects, corps=names)[0]
    head, tail = headline.split("; most below: ")
    assert head.split("most above: ")[1].startswith("Corp 0 at 3p")
    assert tail.startswith("Corp 7 at 3p") and "(all in the corporation table" in tail


def test_a_single_corporation_is_no_comparison(tmp_path):
    frame = multiplayer_frame(30, 3, seed=1)
    homo = frame.with_columns(
        pl.col("bot").cast(pl.String),
        group=pl.col("game_id"),
        corporation=pl.lit("Solo Corp").cast(pl.Enum(["Solo Corp"])),
    )
    page = Page(tmp_path)
    boards.label_balance(page, homo, "corporation", "Corporations", False)
    assert page.headlines == []
    assert "Only **Solo Corp** appears in these games" in page.sections[0]


# ---- solo calibration words -----------------------------------------------------------


@pytest.mark.parametrize(
    ("estimate", "lower", "upper", "published", "drift", "word"),
    [
        (-0.5, -0.7, -0.3, -0.5, (-0.1, 0.1), "consistent"),
        (-0.5, -0.7, -0.3, 0.0, (-0.7, -0.3), "missing adjustment"),
        (0.5, 0.3, 0.7, -0.5, (0.8, 1.2), "wrong direction"),
        (-0.5, -0.7, -0.3, -1.0, (0.3, 0.7), "over-corrects"),
        (-1.0, -1.2, -0.8, -0.5, (-0.7, -0.3), "under-corrects"),
    ],
)
def test_every_calibration_word(estimate, lower, upper, published, drift, word):
    row = {"estimate": estimate, "lower": lower, "upper": upper,
           "published": published, "drift_lower": drift[0], "drift_upper": drift[1]}  # fmt: skip
    assert calibration._judge(row) == word


@pytest.mark.parametrize(
    ("lower", "upper", "se", "side"),
    [(5.5, 7.0, 0.4, 1), (2.0, 4.5, 0.4, -1), (4.0, 6.0, 0.4, 0), (6.0, 7.0, 0.0, 0)],
)
def test_an_entry_is_above_below_or_on_the_published_one(lower, upper, se, side):
    row = {"lower": lower, "upper": upper, "se": se, "published": 5.0}
    assert solo_paired._side(row) == side


@pytest.mark.parametrize(
    ("spread", "word"),
    [(0.0, "even"), (solo_paired.EVEN_SPREAD, "even"), (0.021, "**not even**")],
)
def test_the_published_target_is_even_up_to_two_points(spread, word):
    fair = {name: {"spread": spread, "p10": 0.4, "p90": 0.6, "misfit_sd": 1.0}
            for name in ("published", "banded refit", "per-card formula")}  # fmt: skip
    formula = CardFormula(base=48.8, green=1.51, red=-0.16)
    text = solo_paired._fair_headline("bot", 100, 20, fair, formula, (50, 50))
    assert f"the published table is {word} over event decks" in text
    assert "fitted on 50 setups and judged on the other 50" in text
    assert "target = 48.8 + 1.51 x green - 0.16 x red" in text


# ---- small words -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ratio", "words"),
    [
        (2.5, "pairing cut the variance 2.50-fold"),
        (1.0, "pairing cut the variance 1.00-fold"),
        (0.8, "variance ratio 0.80: pairing did not help here"),
        (math.nan, "no variance ratio"),
        (math.inf, "no variance ratio"),
    ],
)
def test_variance_ratio_words(ratio, words):
    assert ratio_words(ratio) == words


def test_who_played_in_words():
    assert Policies(None).words() == "no one-bot multiplayer games"
    assert Policies("a").words() == "every seat played by **a**"
    assert Policies("a", "b").words() == (
        "every seat played by **a**, checked by **b** on the same setups (paired)"
    )


# ---- corporation x planet interaction ----------------------------------------------

MANY_CORPS = [f"Corp {k}" for k in range(8)]
MANY_PLANETS = [f"Planet {k}" for k in range(6)]


def additive_games(plant: float = 0.0) -> pl.DataFrame:
    """3- and 2-player games whose scores add up (corporation + planet), save
    ``plant`` points for Corp 0 on Planet 0."""
    frames = []
    for n, offset in ((3, 0), (2, 10_000)):
        frame = multiplayer_frame(1200, n, corporations=MANY_CORPS,
                                  planets=MANY_PLANETS, corp_effect={"Corp 0": 3},
                                  planet_effect={"Planet 1": -2}, group_size=n,
                                  seed=4)  # fmt: skip
        planted = (pl.col("corporation") == "Corp 0") & (pl.col("planet") == "Planet 0")
        frames.append(
            frame.with_columns(
                pl.col("bot").cast(pl.String),
                pl.col("game_id") + offset,
                score=pl.col("score") + pl.when(planted).then(plant).otherwise(0),
            )
        )
    return pl.concat(frames, how="vertical_relaxed")


def interaction_page(tmp_path, plant: float) -> tuple[Page, pl.DataFrame]:
    page = Page(tmp_path)
    boards.interaction_section(page, additive_games(plant))
    return page, pl.read_csv(tmp_path / "tables" / "corporation_planet.csv")


def test_no_interaction_reports_no_deviation_though_some_raw_p_are_small(tmp_path):
    page, table = interaction_page(tmp_path, 0.0)
    assert not any("deviate from additivity" in h for h in page.headlines)
    at3 = table.filter(pl.col("n_players") == 3)
    assert at3.height == 48
    assert (at3["p_value"] < 0.05).sum() >= 1  # uncorrected, these would be reported
    assert not at3["significant"].any()
    assert "Holm-adjusted" in page.sections[0]


def test_a_planted_interaction_is_reported_after_holm_over_one_player_count(tmp_path):
    page, table = interaction_page(tmp_path, 12.0)
    (headline,) = [h for h in page.headlines if "deviate from additivity" in h]
    assert re.search(
        r"\*\*Corporation x planet scores \(greedy, 3p\):\*\* \d+ of 48 combinations "
        r"deviate from additivity after Holm correction over the 48 combinations at "
        r"3 players; the largest is Corp 0 on Planet 0: \+\d+\.\d \[",
        headline,
    ), headline
    # one family per player count: Holm over that count's cells, not the table's
    # (the written table keeps six decimals, so Holm of its rounded p-values
    # matches to rounding; a whole-table family would differ by far more)
    for n in (2, 3):
        part = table.filter(pl.col("n_players") == n)
        assert part["p_adjusted"].to_numpy() == pytest.approx(
            stats.holm(part["p_value"].to_numpy()), rel=1e-3, abs=1e-5
        )
    assert table.filter(
        (pl.col("n_players") == 3) & (pl.col("corporation") == "Corp 0")
        & (pl.col("planet") == "Planet 0")
    )["significant"].item()  # fmt: skip


# ---- paired board comparisons, one bot at a time ------------------------------------


def test_paired_board_differences_are_per_bot_and_name_the_bot(tmp_path):
    page = Page(tmp_path)
    homo = HOMO.with_columns(run=pl.col("bot"))  # two runs, one per bot
    boards.label_balance(page, homo, "corporation", "Corporations", True)
    paired = pl.read_csv(tmp_path / "tables" / "corporation_paired.csv")
    assert paired.columns[0] == "bot"
    assert sorted(paired["bot"].unique().to_list()) == ["first", "second"]
    for bot in ("first", "second"):
        alone = analysis.paired_differences(
            HOMO.filter(pl.col("bot") == bot), by="corporation", group_col="group"
        )
        mine = paired.filter(pl.col("bot") == bot)
        for column in ("mean_diff", "p_adjusted"):  # the CSV keeps 6 digits
            assert mine[column].to_numpy() == pytest.approx(
                alone[column].to_numpy(), rel=1e-5, abs=1e-6
            )
        pairs = f"Paired comparisons inside setup groups, {bot} ({mine.height} pairs)"
        assert pairs in page.sections[0]
    (headline,) = [h for h in page.headlines if h.startswith("**Paired design")]
    assert "first: " in headline and "; second: " in headline
    # Alpha - Beta: about 0 under the first bot (both +4), about 8 under the second
    alpha_beta = dict(
        paired.filter(
            (pl.col("corporation_a") == "Alpha Corp")
            & (pl.col("corporation_b") == "Beta Corp")
        )
        .select("bot", "mean_diff")
        .iter_rows()
    )
    assert abs(alpha_beta["first"]) < 2 and alpha_beta["second"] > 6
