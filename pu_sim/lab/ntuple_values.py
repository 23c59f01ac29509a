"""The learned planet value: an n-tuple network fitted within decisions to rollouts.

At every tile placement of solo games played by the fast bot (greedy_tuned
without its depot lookaheads and endgame chain), its best ``KEPT`` placements
(by its own value: greedy plus the fitted placement values) are each valued by
Monte Carlo rollouts of the same bot on common random numbers
(:mod:`pu_sim.lab.rollouts`).  A ridge fit within each decision
explains the rollout values by the bot's own value plus, per third of the
game, how many of the afterstate's 3x3 windows show each pattern class (the
512 patterns of covered squares folded by the square's 8 symmetries into 102
classes) and how many rows and columns have each count of free squares (with
or without a meteorite).  Divided by the bot's own coefficient, the fitted
numbers are in greedy's units: the ``ntuple`` table (every pattern gets its
class's value), which greedy adds to its kept placements scaled by its
``ntuple`` weight (core/bots/greedy_ntuple.pxi).

Why within decisions: trained on games' returns the same network measured
weaker than the bot (docs/bots.md, "A learned planet value"); the bot must
rank candidates that differ by tenths of a medal, and only rollouts of every
candidate from the same position say which of them is better.

Games whose index is a multiple of 4 are held out: the report gives what
choosing by the fitted values gains there, by the rollouts' values, for
growing shares of the training games (the training curve), then paired solo
games on seeds no fit saw.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

from pu_sim import bots
from pu_sim.analysis.stats import within_group_ridge
from pu_sim.bots import BotSpec, fitted
from pu_sim.engine.core import constants, engine_version
from pu_sim.game import Game
from pu_sim.lab import placement_values as pv
from pu_sim.lab import probes
from pu_sim.lab.common import game_scores, paired, share_row
from pu_sim.lab.rollouts import decisions, rollout_values, top_moves
from pu_sim.simulation.seeds import SeedLike

CONSTANTS = constants()
KEPT = int(CONSTANTS["NEXT_FIT_K"])  # the bot's best placements valued per decision
PHASES = int(CONSTANTS["NTUPLE_PHASES"])
ROUND_SPAN = int(CONSTANTS["NTUPLE_ROUND_SPAN"])
PATTERNS = int(CONSTANTS["NTUPLE_PATTERNS"])
LINE_FREE = int(CONSTANTS["NTUPLE_LINE_FREE"])
RIDGES = (1.0, 10.0, 100.0)
"""Ridge penalties tried (standardized columns); the best on held-out games wins."""
SHARES = (0.125, 0.25, 0.5, 1.0)
"""Shares of the training games the training curve fits on."""
WEIGHTS = (0.5, 1.0)
"""ntuple weights played in the paired games and scored offline."""
CONTROL = 1e-9
"""An ntuple weight too small to change a choice: the bot keeps (and place_fit
re-ranks) its best 12 placements as with the learned value, which alone is
what it measures."""

Floats = npt.NDArray[np.float64]
Record = dict[str, Any]


def fast_bot(ntuple: float = 0.0) -> BotSpec:
    """greedy_tuned without its lookaheads and chain: the bot that learns."""
    return bots.greedy(
        "greedy_tuned_fast" if ntuple == 0 else f"greedy_tuned_fast+ntuple{ntuple:g}",
        **{**bots.PRESETS["greedy_tuned"], "next_fit": 0.0, "next_fit_deep": 0.0,
           "end_chain": 0.0, "ntuple": ntuple},
    )  # fmt: skip


def tuned_bot(ntuple: float = 0.0) -> BotSpec:
    """greedy_tuned itself, with the learned value at `ntuple`."""
    label = "greedy_tuned" if ntuple == 0 else f"greedy_tuned+ntuple{ntuple:g}"
    return bots.greedy(label, **{**bots.PRESETS["greedy_tuned"], "ntuple": ntuple})


# --------------------------------------------------------------------------------
# Features
# --------------------------------------------------------------------------------


def _transforms() -> list[npt.NDArray[np.intp]]:
    """The 8 symmetries of a 3x3 square, each as a map of bit positions."""
    cells = np.arange(9).reshape(3, 3)
    out = []
    for k in range(4):
        rotated = np.rot90(cells, k)
        out += [rotated.ravel(), rotated.T.ravel()]
    return out


def pattern_classes() -> npt.NDArray[np.intp]:
    """Each 3x3 pattern's symmetry class, 0..101 (classes in order of first pattern)."""
    bits = (np.arange(PATTERNS)[:, None] >> np.arange(9)) & 1
    canonical = np.full(PATTERNS, PATTERNS)
    for perm in _transforms():
        moved = (bits[:, perm] << np.arange(9)).sum(1)
        canonical = np.minimum(canonical, moved)
    _, classes = np.unique(canonical, return_inverse=True)
    return np.asarray(classes, np.intp)


CLASSES = pattern_classes()
N_CLASSES = int(CLASSES.max()) + 1
N_LINE = 2 * LINE_FREE
N_FEATURES = N_CLASSES + N_LINE


def phase(round_: int) -> int:
    """Part of the game a round falls in (the core's ntuple_phase)."""
    return min(PHASES - 1, max(0, (round_ - 1) // ROUND_SPAN))


def counts(keys: Record) -> npt.NDArray[np.int16]:
    """An afterstate's features: windows per pattern class, lines per state."""
    windows = np.bincount(CLASSES[np.asarray(keys["window"])], minlength=N_CLASSES)
    state = np.asarray(keys["line_met"]) * LINE_FREE + np.asarray(keys["line_free"])
    lines = np.bincount(state, minlength=N_LINE)
    return np.concatenate([windows, lines]).astype(np.int16)


# --------------------------------------------------------------------------------
# Collecting and fitting
# --------------------------------------------------------------------------------


@functools.cache
def _place_fit_table() -> Floats:
    """The packaged placement values, read once (own_values runs per decision)."""
    return np.asarray(fitted.load_table("place_fit")["values"])


def own_values(
    game: Game, moves: Sequence[int], bot: BotSpec
) -> tuple[list[int], Floats]:
    """The bot's best KEPT placements and their values as it ranks them.

    Greedy's value plus place_fit x (placement value - that of greedy's best),
    as core/bots/greedy_decisions.pxi re-ranks its kept placements.  (Greedy's
    own values come from the bot without the re-rankings: with them, the scores
    of its kept placements are already re-ranked.)
    """
    raw = bots.greedy("raw", **{**bot.params, "place_fit": 0.0, "ntuple": 0.0})
    values = probes.greedy_values(game, raw)
    kept = [int(i) for i in top_moves(values, KEPT)]
    row = _place_fit_table()[pv.phase(game.fields()["round"])]
    fit = np.array([row @ np.asarray(probes.placement_features(game, moves[i]))
                    for i in kept])  # fmt: skip
    pull = bot.params["place_fit"] * (fit - fit[0])
    own = np.asarray([values[i] for i in kept]) + pull
    return kept, own


def collect(games: range, rollouts: int, seed: int) -> list[Record]:
    """Every placement decision of solo base games with the fast bot's best options.

    Their own values, afterstate features and mean rollout values.
    """
    bot = fast_bot()
    records = []
    for index in games:
        game = Game(players=1, corporations="universal_coalition", planets="ksb_4156",
                    bots=bot, seed=seed, game_index=index)  # fmt: skip
        for moves in decisions(game, ("place",)):
            kept, own = own_values(game, moves, bot)
            records.append({
                "game": index, "round": game.fields()["round"], "own": own,
                "features": np.stack([counts(probes.planet_keys(game, moves[i]))
                                      for i in kept]),
                "value": np.asarray(rollout_values(
                    game, [moves[i] for i in kept], rollouts, index)),
            })  # fmt: skip
    return records


def design(r: Record) -> Floats:
    """Decision r's options as rows: features in their part of the game, own value."""
    x = np.zeros((len(r["own"]), PHASES * N_FEATURES + 1))
    at = phase(r["round"]) * N_FEATURES
    x[:, at : at + N_FEATURES] = r["features"]
    x[:, -1] = r["own"]
    return x


def fit(records: Sequence[Record], ridge: float) -> Record:
    """Ridge fit of the rollout values within each decision.

    The coefficients in greedy's units (over the own value's coefficient), per
    part of the game: pattern classes, then line states.
    """
    beta = within_group_ridge(
        [(design(r), r["value"]) for r in records], ridge, standardize=True
    )
    coef = float(beta[-1])
    return {"coef": (beta[:-1] / coef).reshape(PHASES, N_FEATURES), "own_coef": coef}


def choice_gains(records: Sequence[Record], coef: Floats, weight: float) -> Floats:
    """Per decision: what choosing with the learned value gains.

    The rollout value of the option own + weight x value picks, minus that of
    the bot's own choice.
    """
    flat = np.asarray(coef).ravel()
    out = []
    for r in records:
        x = design(r)
        own = int(np.argmax(x[:, -1]))
        choice = int(np.argmax(x[:, -1] + weight * (x[:, :-1] @ flat)))
        out.append(r["value"][choice] - r["value"][own])
    return np.asarray(out, float)


def held_out(records: Sequence[Record]) -> Record:
    """Held-out gains (games with index % 4 == 0) by ridge and training share.

    The best ridge at the full training set picks the training curve's ridge.
    """
    test = [r for r in records if not r["game"] % 4]
    train = [r for r in records if r["game"] % 4]
    n_games = max(1, len({r["game"] for r in test}))
    train_games = sorted({r["game"] for r in train})

    def score(part: Sequence[Record], ridge: float, weight: float) -> Record:
        gains = choice_gains(test, fit(part, ridge)["coef"], weight)
        half = 1.96 * gains.std() / np.sqrt(max(1, len(gains)))
        return {"per_decision": float(gains.mean()), "per_decision_ci": float(half),
                "per_game": float(gains.sum() / n_games),
                "per_game_ci": float(half * len(gains) / n_games),
                "changed": float(np.mean(gains != 0))}  # fmt: skip

    by_ridge = [{"ridge": a, **score(train, a, 1.0)} for a in RIDGES]
    best = max(by_ridge, key=lambda row: row["per_game"])["ridge"]
    curve = []
    for share in SHARES:
        keep = set(train_games[: max(1, round(share * len(train_games)))])
        part = [r for r in train if r["game"] in keep]
        curve.append({"games": len(keep), "decisions": len(part),
                      **score(part, best, 1.0)})  # fmt: skip
    by_weight = [{"weight": w, **score(train, best, w)} for w in WEIGHTS]
    return {"decisions": len(test), "games": n_games, "ridge": best,
            "by_ridge": by_ridge, "curve": curve, "by_weight": by_weight}  # fmt: skip


def table_arrays(coef: Floats) -> dict[str, Floats]:
    """The ntuple table: each pattern its class's value, each line state its own."""
    coef = np.asarray(coef)
    window = coef[:, :N_CLASSES][:, CLASSES]
    line = coef[:, N_CLASSES:].reshape(PHASES, 2, LINE_FREE)
    return {"window": fitted.rounded(window), "line": fitted.rounded(line)}


# --------------------------------------------------------------------------------
# Paired games
# --------------------------------------------------------------------------------


def solo_scores(
    bot: BotSpec, n: int, seed: SeedLike, jobs: int, tables: Path
) -> Floats:
    """Solo base-game scores by game index."""
    return game_scores([bot], n, seed, jobs, tables)[:, 0]


def three_player_row(
    n: int, seed: SeedLike, jobs: int, tables: Path, weight: float
) -> Record:
    """The fast bot with the learned value against two greedy_tuned seats.

    Each of n setups played in the three cyclic seat orders; the share of
    (game, opponent) pairs it finished ahead of (ties half), its interval over
    setups (each setup's six pairs one cluster).
    """
    return share_row(fast_bot(weight), tuned_bot(), 3, n, seed, jobs, tables)


def paired_rows(
    n: int, seed: SeedLike, jobs: int, tables: Path, tuned: int
) -> list[Record]:
    """Each bot with the learned value against itself without it, on the same seeds.

    The fast bot at the control weight and every weight on n seeds;
    greedy_tuned at 0.5 on `tuned` seeds (0: not played).
    """
    rows = []
    plans = [(fast_bot, w, n) for w in (CONTROL, *WEIGHTS)]
    if tuned:
        plans.append((tuned_bot, 0.5, tuned))
    bases: dict[tuple[str, int], Floats] = {}
    for make, weight, games in plans:
        key = (make.__name__, games)
        if key not in bases:
            bases[key] = solo_scores(make(), games, seed, jobs, tables)
        base = bases[key]
        scores = solo_scores(make(weight), games, seed, jobs, tables)
        gain, half = paired(scores, base)
        rows.append({"bot": make().label, "weight": weight, "games": games,
                     "gain": gain, "half_width": half, "base_mean": float(base.mean()),
                     "mean": float(scores.mean())})  # fmt: skip
    return rows


# --------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------


def figure(report: Record) -> Figure:
    """The training curve (left) and the paired solo gains (right)."""
    fig = Figure(figsize=(10, 4), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    curve = report["held_out"]["curve"]
    ax1.errorbar(
        [c["games"] for c in curve],
        [c["per_game"] for c in curve],
        yerr=[c["per_game_ci"] for c in curve],
        marker="o",
        capsize=3,
    )
    ax1.axhline(0, color="grey", lw=0.8)
    ax1.set_xscale("log")
    ax1.set_xticks([c["games"] for c in curve], [str(c["games"]) for c in curve])
    ax1.minorticks_off()
    ax1.set(
        xlabel="training games",
        ylabel="rollout medals a game (held out)",
        title="Training curve: choosing with the learned value (weight 1)",
    )
    rows = report["paired"]
    labels = [f"{r['bot']} {r['weight']:g}" for r in rows]
    ax2.errorbar(
        range(len(rows)),
        [r["gain"] for r in rows],
        yerr=[r["half_width"] for r in rows],
        fmt="o",
        capsize=3,
    )
    ax2.axhline(0, color="grey", lw=0.8)
    ax2.set_xticks(range(len(rows)), labels, rotation=20, ha="right", fontsize=8)
    ax2.set(ylabel="solo score gain a game (paired, 95% CI)",
            title="Paired solo games against the same bot without it")  # fmt: skip
    return fig


def report_text(report: Record, command: str) -> str:
    """The README: the fit, its held-out gains and training curve, the paired games."""
    h = report["held_out"]
    lines = [
        "# The learned planet value (n-tuple network)", "",
        f"`{command}` (engine {engine_version()}, "
        f"{report['seconds']:.0f} s).", "",
        f"{report['games']} solo base games (Universal Coalition on KSB-4156, seed "
        f"{report['seed']}) played by {fast_bot().label} (greedy_tuned without its "
        f"lookaheads and endgame chain); at each of their {report['decisions']:,} "
        f"placements its best {KEPT} options got {report['rollouts']} rollouts each "
        "by the same bot (common random numbers).  The fit explains the rollout "
        "values within each decision by the bot's own value plus, per third of the "
        f"game, the afterstate's 3x3 window patterns ({N_CLASSES} classes under the "
        "square's symmetries) and its rows' and columns' free squares (with or "
        f"without a meteorite): {PHASES * N_FEATURES} numbers.", "",
        f"## Held out: {h['decisions']:,} decisions of {h['games']} games "
        "(index multiple of 4)", "",
        "Gain: the rollout value of the option chosen by own value + weight x "
        f"learned value, minus that of {fast_bot().label}'s own choice (one step of "
        "policy improvement, by the rollouts' values, not games).", "",
        "| ridge | gain a decision (95% CI) | a game | choices changed |",
        "|---|---|---|---|",
    ]  # fmt: skip
    for r in h["by_ridge"]:
        lines.append(f"| {r['ridge']:g} | {r['per_decision']:+.3f} ± "
                     f"{r['per_decision_ci']:.3f} | {r['per_game']:+.2f} ± "
                     f"{r['per_game_ci']:.2f} | {r['changed']:.0%} |")  # fmt: skip
    lines += ["", f"Training curve (ridge {h['ridge']:g}, weight 1):", "",
              "| training games | decisions | held-out gain a game (95% CI) |",
              "|---|---|---|"]  # fmt: skip
    for c in h["curve"]:
        lines.append(f"| {c['games']} | {c['decisions']:,} | {c['per_game']:+.2f} ± "
                     f"{c['per_game_ci']:.2f} |")  # fmt: skip
    lines += ["", "By weight (all training games): " + ", ".join(
        f"{r['weight']:g}: {r['per_game']:+.2f} ± {r['per_game_ci']:.2f} a game"
        for r in h["by_weight"]) + ".", "",
        f"## Paired solo games (seed {report['paired_seed']}, none used in the "
        "fit)", "",
        "The table fitted on every game, each bot against itself without it "
        f"(ntuple {CONTROL:g}: the control, the bot's best {KEPT} placements "
        "re-ranked as with the table, the table scaled to nothing):", "",
        "| bot | ntuple | games | mean without -> with | gain (95% CI) |",
        "|---|---|---|---|---|"]  # fmt: skip
    for r in report["paired"]:
        lines.append(f"| {r['bot']} | {r['weight']:g} | {r['games']:,} | "
                     f"{r['base_mean']:.2f} -> {r['mean']:.2f} | {r['gain']:+.2f} ± "
                     f"{r['half_width']:.2f} |")  # fmt: skip
    t = report["three_player"]
    lines += [
        "",
        f"## Three players ({t['setups']:,} base-game setups, seed "
        f"{report['paired_seed']}, each in the three seat orders)",
        "",
        f"{t['bot']} against two {t['against']} seats finished ahead of a "
        f"{t['against']} in **{t['ahead']:.1%} ± {t['half_width']:.1%}** of "
        "the (game, opponent) pairs (ties half; 95% interval over setups). "
        "With 3 players greedy_tuned's lookaheads are off (the commander "
        "chooses the rotation), so both play one-ply greedy there.",
        "",
        "![training curve and paired gains](figures/ntuple_values.png)",
        "",
    ]
    return "\n".join(lines)
