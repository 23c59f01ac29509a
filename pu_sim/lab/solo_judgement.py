"""What the learned bot's solo target asks: judging greedy_tuned's best two placements.

The issue's learned bot must play solo 3 points above greedy_tuned at 100 games/s
or more.  Search finds those points by judging greedy_tuned's best two
placements with rollouts.  This study measures that judgement and how much of
it cheaper readings of each option recover: at every placement of greedy_tuned's
solo base games its best two placements (by its own final value, lookaheads and
chain included) are each valued by rollouts of greedy_tuned (common random
numbers), and read three cheaper ways:

* short play-outs: a few redeals of what the player cannot see, played by
  greedy_tuned to the start of the 1st, 2nd, 3rd or 5th round after, scored as
  the game then stands;
* the afterstate: the legal placements of each of the 12 shapes (log and
  none), greedy's placement features, the lines' free squares;
* greedy_tuned's own value.

The rollouts' own judgement: choosing by the first half of them, judged by the
second half (the search's gain at that budget).  The readings': fitted within
decisions per part of the game, on the games of the other parity (so every game
is held out once), judged by all rollouts (the readings draw on other streams).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

from pu_sim.analysis.stats import within_group_ridge
from pu_sim.game import Game
from pu_sim.lab import probes
from pu_sim.lab.common import (
    ROUND_PARTS,
    paired,
    round_part,
    round_part_labels,
)
from pu_sim.lab.rollouts import STREAM, decisions, top_moves

Floats = npt.NDArray[np.float64]
Record = dict[str, Any]

BOT = "greedy_tuned"
WIDTH = 2  # greedy_tuned's best placements judged
HORIZONS = (1, 2, 3, 5)  # play-outs to the start of this many rounds after
SHAPES = 12  # tile ids 0-11: one tile of each shape
DECISION_STREAMS = 1000  # streams per decision (rollouts, then play-outs)
PLAYOUT_OFFSET = 500  # the play-outs' streams within a decision's
RIDGE = 1.0


def playout_scores(game: Game, move: int, stream: int) -> list[float]:
    """The score as the game stands at the start of each horizon's round.

    After ``move`` on the redeal ``stream``, greedy_tuned playing on (the
    final score when the game ends first).
    """
    state = game.state.determinized(0, stream)
    state.apply(move)
    start = state.game_fields()["round"]
    scores: dict[int, float] = {}
    while not state.is_terminal and len(scores) < len(HORIZONS):
        gone = state.game_fields()["round"] - start
        for h in HORIZONS:
            if h not in scores and gone >= h:
                stood = state.copy()
                stood.score_now()
                scores[h] = float(stood.player_fields(0)["score"])
        if len(scores) < len(HORIZONS):
            state.apply(state.bot_move())
    final = float(state.player_fields(0)["score"])
    return [scores.get(h, final) for h in HORIZONS]


def afterstate(game: Game, move: int) -> list[float]:
    """Shape placement counts (log, none), placement features, line counts."""
    after = game.state.copy()
    after.apply(move)
    counts = np.array([after.placement_count(0, t) for t in range(SHAPES)], float)
    lines = np.zeros(8)
    for free, meteorite, *_ in after.line_states(0):
        if 1 <= free <= 4:
            lines[free - 1 + (4 if meteorite else 0)] += 1
    features = probes.placement_features(game, move)
    return [*np.log1p(counts), *(counts == 0), *features, *lines]


def collect(games: range, rollouts: int, redeals: int, seed: int) -> list[Record]:
    """Every placement of greedy_tuned's solo base games with a choice."""
    records = []
    for index in games:
        game = Game(players=1, bots=BOT, seed=seed, game_index=index)
        for k, moves in enumerate(decisions(game, {"place"})):
            values = probes.greedy_values(game, BOT)
            kept = [moves[i] for i in top_moves(values, WIDTH)]
            first = index * STREAM + DECISION_STREAMS * k
            round_ = game.fields()["round"]
            redeal = first + PLAYOUT_OFFSET
            records.append({
                "game": index, "round": round_, "bucket": round_part(round_),
                "value": sorted(values, reverse=True)[:WIDTH],
                "rollouts": [[probes.rollout(game, m, first + j)
                              for j in range(rollouts)] for m in kept],
                "playouts": [np.mean([playout_scores(game, m, redeal + j)
                                      for j in range(redeals)], axis=0).tolist()
                             for m in kept],
                "afterstate": [afterstate(game, m) for m in kept],
            })  # fmt: skip
    return records


def reading_sets() -> dict[str, Any]:
    """Each named reading: which columns of an option's features it uses."""
    sets: dict[str, Any] = {"greedy_tuned's value": lambda r, i: [r["value"][i]]}
    for n, h in enumerate(HORIZONS):
        sets[f"+ play-out to round +{h}"] = lambda r, i, n=n: [
            r["value"][i],
            r["playouts"][i][n],
        ]
    sets["+ afterstate"] = lambda r, i: [r["value"][i], *r["afterstate"][i]]
    sets["+ every reading"] = lambda r, i: [
        r["value"][i],
        *r["playouts"][i],
        *r["afterstate"][i],
    ]
    return sets


def search_gain(records: Sequence[Record]) -> Floats:
    """Per decision: the gain of choosing by the first half of the rollouts.

    Judged by the second half, over greedy_tuned's own first choice.
    """
    gains = []
    for r in records:
        v = np.asarray(r["rollouts"], float)
        half = v.shape[1] // 2
        choice = int(np.argmax(v[:, :half].mean(1)))
        judged = v[:, half:].mean(1)
        gains.append(judged[choice] - judged[0])
    return np.asarray(gains)


def reading_gain(records: Sequence[Record], read: Any, ridge: float = RIDGE) -> Floats:
    """Per decision: the gain of choosing by a reading fitted on the other games.

    Fitted within decisions per part of the game on the games of the other
    parity; judged by the mean of all the decision's rollouts.
    """
    x = [np.asarray([read(r, i) for i in range(len(r["value"]))], float)
         for r in records]  # fmt: skip
    judged = [np.mean(r["rollouts"], axis=1) for r in records]
    gains = np.zeros(len(records))
    for b in range(len(ROUND_PARTS)):
        part = [n for n, r in enumerate(records) if r["bucket"] == b]
        for parity in (0, 1):
            test = [n for n in part if records[n]["game"] % 2 == parity]
            train = [(x[n], judged[n]) for n in part
                     if records[n]["game"] % 2 != parity]  # fmt: skip
            if len(train) < 2:
                continue
            coef = within_group_ridge(train, ridge, standardize=True)
            for n in test:
                choice = int(np.argmax(x[n] @ coef))
                gains[n] = judged[n][choice] - judged[n][0]
    return gains


def summarise(records: Sequence[Record]) -> Record:
    """Gains a game (summed over its decisions) and a decision per part of the game."""
    ids, game_of = np.unique([r["game"] for r in records], return_inverse=True)
    games = len(ids)
    buckets = np.asarray([r["bucket"] for r in records])
    rows = []
    for name, gains in [("rollouts (half against half)", search_gain(records)),
                        *((name, reading_gain(records, read))
                          for name, read in reading_sets().items())]:  # fmt: skip
        # each game's decisions summed; the gains are already over greedy_tuned's
        per_game, half = paired(np.bincount(game_of, gains, minlength=games), 0.0)
        rows.append({
            "judge": name, "per_game": per_game, "half_width": half,
            "per_decision": [float(gains[buckets == b].mean())
                             if (buckets == b).any() else 0.0
                             for b in range(len(ROUND_PARTS))],
        })  # fmt: skip
    return {
        "games": games, "decisions": len(records),
        "decisions_per_part": [int((buckets == b).sum())
                               for b in range(len(ROUND_PARTS))],
        "rows": rows,
    }  # fmt: skip


def figure(summary: Record) -> Figure:
    """Gain a game of each judge, and a decision per part of the game."""
    fig = Figure(figsize=(13, 4.5), layout="constrained")
    ax0, ax1 = fig.subplots(1, 2)
    rows = summary["rows"]
    ax0.barh([r["judge"] for r in rows][::-1], [r["per_game"] for r in rows][::-1],
             xerr=[r["half_width"] for r in rows][::-1], color="tab:blue")  # fmt: skip
    ax0.axvline(0, color="grey", lw=0.8)
    ax0.set_xlabel("medals a game over greedy_tuned's choice (95% CI)")
    ax0.set_title("Judging greedy_tuned's best two placements")
    labels = round_part_labels()
    width = 0.8 / len(rows)
    for n, r in enumerate(rows):
        ax1.bar(np.arange(len(labels)) + n * width, r["per_decision"], width,
                label=r["judge"])  # fmt: skip
    ax1.set_xticks(np.arange(len(labels)) + 0.4 - width / 2, labels)
    ax1.axhline(0, color="grey", lw=0.8)
    ax1.set_xlabel("round")
    ax1.set_ylabel("medals a decision")
    ax1.legend(fontsize=7)
    ax1.set_title("By part of the game")
    return fig


def report_text(summary: Record, config: Any, command: str, seconds: float) -> str:
    """The README: what was read, and what each judge gains."""
    rows = summary["rows"]
    lines = [
        "# Judging greedy_tuned's best two solo placements",
        "",
        f"Command: `{command}` ({seconds:.0f} s).",
        "",
        f"{summary['games']} solo base games of `{BOT}` (seed {config.seed}); at each "
        f"of its {summary['decisions']:,} placements with a choice its best {WIDTH} "
        f"were each valued by {config.rollouts} rollouts of `{BOT}` (common random "
        f"numbers) and read by {config.redeals} short play-outs (to the start of the "
        f"round {', '.join(f'+{h}' for h in HORIZONS)} after, scored as the game "
        "then stands) and on the afterstate (placements of each shape, placement "
        "features, lines).  Readings fitted within decisions per part of the game on "
        "the games of the other parity; every gain is over greedy_tuned's own choice, "
        "in medals, judged by rollouts the choice did not see.",
        "",
        "| judge | gain a game (95% CI) | "
        + " | ".join(f"a decision, rounds {p}" for p in round_part_labels())
        + " |",
        "|---|---|" + "---|" * len(ROUND_PARTS),
    ]
    for r in rows:
        lines.append(
            f"| {r['judge']} | {r['per_game']:+.2f} ± {r['half_width']:.2f} | "
            + " | ".join(f"{g:+.3f}" for g in r["per_decision"])
            + " |"
        )
    parts = zip(round_part_labels(), summary["decisions_per_part"], strict=True)
    lines += [
        "",
        "Decisions per part of the game: "
        + ", ".join(f"{p}: {n:,}" for p, n in parts)
        + ".",
        "",
        "![judges](figures/solo_judgement.png)",
        "",
    ]
    return "\n".join(lines)
