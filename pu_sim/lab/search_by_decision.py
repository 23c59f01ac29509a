"""Where search beats greedy: a search restricted to one kind of decision.

Games are played by a greedy preset, except that at the decisions of
one group (placements, track choices, civ picks, ...) the preset's best
``WIDTH`` moves are each valued by ``ROLLOUTS`` rollouts (common random
numbers) and the best mean is played, as the search bot does at every
decision.  Each group's games are paired with the preset's own games (same
seeds), so the difference is what better play at that kind of decision alone
is worth: the decisions where the greedy's one-ply values lose most, and so
where a new greedy feature can gain most.  With more players only seat 0
searches, valuing moves by its margin over the best opponent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pu_sim import bots
from pu_sim.engine.core import engine_version
from pu_sim.game import Game
from pu_sim.lab import probes
from pu_sim.lab.common import paired
from pu_sim.lab.rollouts import top_moves

Floats = npt.NDArray[np.float64]

WIDTH = 2  # greedy-best moves kept, as the search bot's default
ROLLOUTS = 4  # per kept move: budget 8, search-8
GROUPS: dict[str, frozenset[str]] = {
    "place": frozenset({"place", "no_place", "meteor_symbol"}),
    "tracks": frozenset(
        {"synergy", "energy", "track", "direction", "flux_track", "branch"}
    ),
    "regress": frozenset({"regress"}),
    "civ": frozenset({"civ_pick"}),
    "rovers": frozenset(
        {
            "rover_step",
            "rover_place",
            "pod_move",
            "pod_place",
            "teleport",
            "destroy_rover",
            "destroy_lifepod",
            "collect_meteorite",
            "lifepod",
        }
    ),
    "patch": frozenset({"patch", "keep_resource"}),
    "station": frozenset({"rotation", "remove_stack"}),
    "powers": frozenset({"power", "yes_no", "order"}),
}
"""Decision names (Game.decision) searched in each group."""


def play_scores(
    preset: str, group: str, index: int, seed: int, players: int = 1
) -> list[float]:
    """Every seat's final score of game `index`, seat 0 searching the group.

    A group not in GROUPS searches none: the preset's own game.  ``preset``: a
    greedy bot name (a preset, or "greedy" for the default weights).  With more
    players only seat 0 searches, valuing its moves as the search bot does (its
    score minus the best opponent's); the other seats play the preset.
    """
    bot = bots.parse(preset)
    game = Game(players=players, bots=bot, seed=seed, game_index=index)
    searched = GROUPS.get(group, frozenset())
    value = probes.rollout_value if players == 1 else probes.rollout_margin
    while not game.is_terminal:
        moves = game.legal_moves()
        if game.decision in searched and game.decider == 0 and len(moves) > 1:
            kept = [moves[i] for i in top_moves(probes.greedy_values(game, bot), WIDTH)]
            means = [value(game, m, ROLLOUTS, index * 1000) for m in kept]
            game.apply(kept[int(np.argmax(means))])
        else:
            game.apply(game.bot_move())
    return [float(s["score"]) for s in game.scores()]


def play(preset: str, group: str, index: int, seed: int) -> float:
    """Solo score of game `index`, searching only the group's decisions."""
    return play_scores(preset, group, index, seed)[0]


def group_rows(
    scores: Mapping[str, Floats],
    groups: Sequence[str] = tuple(GROUPS),
    ahead: Mapping[str, Floats] | None = None,
) -> list[dict[str, Any]]:
    """Per group: its mean and its paired gain over the preset ("none").

    The mean of a score, or of a margin with more players; with `ahead`, seat
    0's share of opponents beaten and its paired gain too.
    """
    rows = []
    for group in groups:
        diff, half = paired(scores[group], scores["none"])
        row = {"group": group, "decisions": sorted(GROUPS[group]),
               "mean": float(np.mean(scores[group])), "diff": diff,
               "half_width": half}  # fmt: skip
        if ahead is not None:
            a_diff, a_half = paired(ahead[group], ahead["none"])
            row |= {"ahead": float(np.mean(ahead[group])), "ahead_diff": a_diff,
                    "ahead_half_width": a_half}  # fmt: skip
        rows.append(row)
    return rows


def report_text(preset: str, command: str, result: Mapping[str, Any]) -> str:
    """The README: the gain of searching each group alone."""
    players = int(result.get("players", 1))
    head = [
        "# Where search beats greedy, by kind of decision", "",
        f"`{command}` (engine {engine_version()}, "
        f"{result['seconds'] / 60:.1f} min).",
    ]  # fmt: skip
    if players == 1:
        head += [
            f"Solo base games played by `{preset}` (mean {result['preset_mean']:.2f}, "
            f"median {result['preset_median']:.0f}); in each row only that group's "
            f"decisions are searched: the preset's best {WIDTH} moves, {ROLLOUTS} "
            "rollouts each, the best mean played. Paired with the preset's own "
            "games (same seeds); 95% intervals.", "",
            "| group | decisions | mean solo score | gain over the preset |",
            "|---|---|---|---|",
            *(f"| {r['group']} | {', '.join(r['decisions'])} | {r['mean']:.2f} "
              f"| {r['diff']:+.2f} ± {r['half_width']:.2f} |"
              for r in result["groups"]),
        ]  # fmt: skip
    else:
        head += [
            f"{players}-player base games played by "
            f"`{preset}` in every seat; in each row seat 0 searches only that "
            f"group's decisions: the preset's best {WIDTH} moves, {ROLLOUTS} "
            "rollouts each valued by its score minus the best opponent's, the best "
            "mean played. Paired with the preset's own games (same seeds; seat 0's "
            f"margin there {result['preset_mean']:+.2f}, its share of opponents "
            f"beaten {result['preset_ahead']:.1%}); 95% intervals.", "",
            "| group | decisions | seat 0's margin | gain | opponents beaten | gain |",
            "|---|---|---|---|---|---|",
            *(f"| {r['group']} | {', '.join(r['decisions'])} | {r['mean']:+.2f} "
              f"| {r['diff']:+.2f} ± {r['half_width']:.2f} | {r['ahead']:.1%} "
              f"| {r['ahead_diff']:+.1%} ± {r['ahead_half_width']:.1%} |"
              for r in result["groups"]),
        ]  # fmt: skip
    return "\n".join([
        *head, "", "The gains do not add up to the full search's: searching one kind",
        "of decision also changes the positions the others meet.", "",
    ])  # fmt: skip
