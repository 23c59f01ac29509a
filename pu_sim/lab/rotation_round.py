"""The learned rotation value: the commander's rotation fitted to rollouts.

At every commander's rotation of 3-player base games played by greedy_learned
without the learned value (the depot rule alone), the rule's best
``WIDTH`` rotations are each valued by rollouts (common random numbers;
the commander's final score minus the other players' mean).  Three features
of each, as the core computes them (``GameState.rotation_round_outcomes``):
the rule's own value, the commander's score and the others' mean score once
the round the rotation deals is played out.  A ridge fit within each decision,
per part of the game (its round), gives the ``rotation_round`` table
(``pu_sim/core/bots/greedy_rotation_round.pxi``).  Games whose index is a
multiple of 4 are held out: choosing by the fit there against the rule's
choice, valued by the rollouts, is the fit's offline gain; paired 3- and
4-player games are the measure that counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

from pu_sim import bots
from pu_sim.analysis.stats import within_group_ridge
from pu_sim.bots import fitted
from pu_sim.bots.specs import BotSpec
from pu_sim.game import Game
from pu_sim.lab import probes
from pu_sim.lab.common import ROUND_PARTS, paired, round_part_labels
from pu_sim.lab.rollouts import STREAM, decisions, top_moves

Floats = npt.NDArray[np.float64]
Record = dict[str, Any]

PLAYERS = 3
WIDTH = int(bots.parse("greedy_learned").params["rotation_width"])
"""The rule's best rotations the learned bot plays out (its rotation_width)."""
BUCKET_STARTS = ROUND_PARTS  # the core's rows: the first round of each
FEATURES = ("rule", "own_score", "others_score")
RIDGE = 1.0


def rule_bot() -> BotSpec:
    """greedy_learned without the learned value: the policy the rollouts serve."""
    return bots.greedy("greedy_learned_rule", **{**bots.PRESETS["greedy_learned"],
                                              "rotation_round": 0.0})  # fmt: skip


def learned_bot(weight: float = 1.0) -> BotSpec:
    """greedy_learned with the learned rotation value at ``weight``."""
    weights = {**bots.PRESETS["greedy_learned"], "rotation_round": weight}
    return bots.greedy(f"greedy_learned_rr{weight:g}", **weights)


def collect(games: range, rollouts: int, seed: int) -> list[Record]:
    """Every commander's rotation of the games, with its kept rotations.

    Their features and mean rollout margins.
    """
    bot = rule_bot()
    vector = bot.vector()
    records = []
    for index in games:
        game = Game(players=PLAYERS, bots=bot, seed=seed, game_index=index)
        for moves in decisions(game, {"rotation"}):
            rule = probes.greedy_values(game, bot)
            kept = top_moves(rule, WIDTH)
            reading = game.state.rotation_round_outcomes(vector)
            outcomes = reading["outcomes"]
            first = index * STREAM + 1000 * game.fields()["round"]
            records.append({
                "game": index, "round": game.fields()["round"],
                "bucket": reading["bucket"],
                "features": [[rule[i], *outcomes[i]] for i in kept],
                "value": [probes.rollout_margin(game, moves[i], rollouts, first,
                                                game.decider, "mean") for i in kept],
            })  # fmt: skip
    return records


def is_held_out(record: Record) -> bool:
    """Games whose index is a multiple of 4 are not fitted."""
    return int(record["game"]) % 4 == 0


def fit(
    records: Sequence[Record], ridge: float = RIDGE, games: int | None = None
) -> Floats:
    """Coefficients [bucket, feature] fitted within decisions.

    On the training games (those of index below ``games``, when given).
    """
    coef = np.zeros((len(BUCKET_STARTS), len(FEATURES)))
    for b in range(len(BUCKET_STARTS)):
        groups = [(r["features"], r["value"]) for r in records
                  if r["bucket"] == b and not is_held_out(r)
                  and (games is None or r["game"] < games)]  # fmt: skip
        if groups:
            coef[b] = within_group_ridge(groups, ridge, standardize=True)
    return coef


def held_out(records: Sequence[Record], coef: Floats) -> Record:
    """The fit's gain per part of the game, on the held-out games.

    The rollout value of the fit's choice minus the rule's (its first kept
    rotation), per decision; and summed over each game's commanders.
    """
    rows = []
    per_game: dict[int, float] = {}
    for b, start in enumerate(BUCKET_STARTS):
        gains = []
        for r in records:
            if r["bucket"] != b or not is_held_out(r):
                continue
            choice = int(np.argmax(np.asarray(r["features"]) @ coef[b]))
            gain = r["value"][choice] - r["value"][0]
            gains.append(gain)
            per_game[r["game"]] = per_game.get(r["game"], 0.0) + gain
        gain, half = paired(gains, 0.0) if gains else (0.0, 0.0)
        rows.append({"round_from": start, "decisions": len(gains),
                     "gain": gain, "half_width": half})  # fmt: skip
    totals = list(per_game.values())
    mean, half = paired(totals, 0.0) if totals else (0.0, 0.0)
    return {"buckets": rows, "games": len(totals),
            "per_game": mean, "per_game_half_width": half}  # fmt: skip


def training_curve(
    records: Sequence[Record], shares: Sequence[float] = (0.125, 0.25, 0.5, 1.0)
) -> list[Record]:
    """The held-out gain a game of fits on the first share of the games."""
    last = 1 + max(int(r["game"]) for r in records)
    curve = []
    for share in shares:
        games = max(1, round(share * last))
        h = held_out(records, fit(records, games=games))
        trained = sum(1 for g in range(games) if g % 4)
        curve.append({"training_games": trained, "per_game": h["per_game"],
                      "half_width": h["per_game_half_width"]})  # fmt: skip
    return curve


def table_arrays(coef: Floats) -> dict[str, Floats]:
    """The ``rotation_round`` table's arrays."""
    return {"coef": fitted.rounded(coef, 5)}


def figure(report: Record) -> Figure:
    """The report's figure: training curve, gain by round, paired shares."""
    fig = Figure(figsize=(14, 4), layout="constrained")
    ax0, ax1, ax2 = fig.subplots(1, 3)
    curve = report["curve"]
    ax0.errorbar([c["training_games"] for c in curve], [c["per_game"] for c in curve],
                 yerr=[c["half_width"] for c in curve], marker="o")  # fmt: skip
    ax0.axhline(0, color="grey", lw=0.8)
    ax0.set_xlabel("training games")
    ax0.set_ylabel("held-out rollout margin gained a game")
    ax0.set_title("Training curve (all commanders of a game)")
    rows = report["held_out"]["buckets"]
    labels = round_part_labels()
    ax1.bar(labels, [r["gain"] for r in rows],
            yerr=[r["half_width"] for r in rows], color="tab:blue")  # fmt: skip
    ax1.axhline(0, color="grey", lw=0.8)
    ax1.set_xlabel("round")
    ax1.set_ylabel("rollout margin gained per decision")
    ax1.set_title("Held-out games: the fit's choice against the rule's")
    shares = report["paired"]
    names = [f"{r['players']}p vs {r['against']}" for r in shares]
    ahead = [100 * r["ahead"] for r in shares]
    ax2.barh(names, ahead, xerr=[100 * r["half_width"] for r in shares],
             color="tab:green")  # fmt: skip
    ax2.axvline(50, color="grey", lw=0.8)
    ax2.set_xlim(40, max(70.0, *ahead))
    ax2.set_xlabel("% of opponents finished ahead of (95% CI)")
    ax2.set_title("Paired games, one learned seat")
    return fig


def report_text(report: Record, command: str) -> str:
    """The README: the fit, its held-out gains, the paired games."""
    h = report["held_out"]
    lines = [
        "# The learned rotation value (commander's station rotation)",
        "",
        f"Command: `{command}` ({report['seconds']:.0f} s).",
        "",
        f"{report['games']} 3-player base games (seed {report['seed']}) played by "
        f"`{report['served']}`; at each of {report['decisions']:,} commander's "
        f"rotations its best {WIDTH} by the depot rule were each valued by "
        f"{report['rollouts']} rollouts (common random numbers; final score minus "
        "the other players' mean).  Fitted within decisions per part of the game "
        "(ridge on standardized columns); games with index a multiple of 4 held out.",
        "",
        "| rounds | rule | own score after the round | others' mean after it "
        "| held-out decisions | gain per decision (95% CI) |",
        "|---|---|---|---|---|---|",
    ]
    for label, row, c in zip(round_part_labels(), h["buckets"], report["coef"],
                             strict=True):  # fmt: skip
        lines.append(
            f"| {label} | {c[0]:+.4f} | {c[1]:+.4f} | {c[2]:+.4f} | {row['decisions']} "
            f"| {row['gain']:+.3f} ± {row['half_width']:.3f} |"
        )
    lines += [
        "",
        f"Summed over a held-out game's commanders: {h['per_game']:+.2f} ± "
        f"{h['per_game_half_width']:.2f} rollout points of margin ({h['games']} "
        "games).  Training curve (fits on the first games only, the same "
        "held-out games):",
        "",
        "| training games | held-out gain a game |",
        "|---|---|",
        *(
            f"| {c['training_games']} | {c['per_game']:+.2f} ± {c['half_width']:.2f} |"
            for c in report["curve"]
        ),
        "",
        f"Paired base games (seed {report['paired_seed']}, none of them fitted), "
        "one learned seat among the field, every cyclic seat order; share of "
        "opponents it finished ahead of, 95% interval over setups:",
        "",
        "| learned seat | field | players | setups | ahead of |",
        "|---|---|---|---|---|",
    ]
    for r in report["paired"]:
        lines.append(
            f"| `{r['bot']}` | `{r['against']}` | {r['players']} | {r['setups']} "
            f"| {100 * r['ahead']:.1f}% ± {100 * r['half_width']:.1f}% |"
        )
    lines += ["", "![fit and paired games](figures/rotation_round.png)", ""]
    return "\n".join(lines)
