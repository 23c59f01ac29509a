"""How often a bot uses each corporation's powers when they are available.

A balance study is wrong where its bot ignores a power: the corporation then
looks weaker than it is. This module plays games on the slow path
(:class:`pu_sim.game.Game`, the same engine functions one decision at a time)
and records, before every decision of a seat, which of its legal moves are
powers and which one the seat's bot chose:

* **activated** powers: a tech used by choice (offered in an ``order`` or
  ``power`` decision beside the ordinary moves);
* **optional** powers: a triggered power the player may decline
  (``yes_no`` decisions);
* **track** choices: every track a tracker could advance on, so a
  corporation whose special track (Makeshift's rover track, say) is never
  chosen shows up beside the others;
* every **decision** by kind, so a corporation that, say, hardly ever moves
  its rovers shows up in :func:`decision_mix`.

:func:`power_table` turns the rows into rates per bot, corporation and power:
decisions where it was available, the share in which it was used, and the
share of (game, round) pairs with a chance to use it in which it was used.
The outcome side (meteorites collected, tech level, ...) comes from the fast
path in :func:`outcome_table`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl
from joblib import Parallel, delayed

from pu_sim.bots import BotSpec, parse
from pu_sim.engine.core import constants
from pu_sim.game import Game
from pu_sim.simulation.in_memory import simulate

__all__ = [
    "LIFEPOD_ON_TRACK",
    "OUTCOMES",
    "OWN_KINDS",
    "WHY_IGNORED",
    "decision_mix",
    "ignored_powers",
    "observe_game",
    "outcome_table",
    "power_table",
    "power_use",
    "report_text",
]

TRACK_DECISIONS = ("energy", "synergy", "track")
OUTCOMES = (
    "tech_level", "track_civ", "track_water", "track_biomass", "track_rover",
    "track_tech", "lifepods_collected", "meteorites_collected", "patches_placed",
    "civ_cards", "score",
)  # fmt: skip
"""Per-seat results whose mean per corporation shows what its powers yield."""

LIFEPOD_ON_TRACK = "special rule: put a collected lifepod on a track space"
"""Cosmos Inc.'s own rule as a power: used when a lifepod goes to a track."""

OWN_KINDS = ("activated", "optional", "special")
"""The corporation's own powers: techs, optional triggers, its special rule."""

WHY_IGNORED: Mapping[tuple[str, ...], str] = {
    ("Wormhole Corp.", "use tech 1"): (
        "declined on purpose: resetting the biomass tracker from its top lost "
        "points in paired games under two valuations of the climb back "
        "(docs/bots.md, Power use)"
    ),
    ("Makeshift", "use tech 4"): (
        "a step down with no benefit: it pays only to re-enter a milestone or "
        "unblock a tracker, which the bots do not plan; rarely reached "
        "(docs/bots.md, Power use)"
    ),
    ("Cosmos Inc.", "special rule", "greedy"): (
        "the default weights value the medal a lifepod on a track gives up "
        "above the jumps it buys; the tuned weights put one there in about a "
        "tenth of the offers (docs/bots.md, Power use)"
    ),
}
"""Why a bot leaves a power unused, by (corporation, power's name before its
colon) or, for one bot's reason, (corporation, name, bot); an ignored power
missing here is a defect the report flags."""

ROW_SCHEMA = {
    "game": pl.Int64, "seat": pl.Int64, "corporation": pl.String,
    "round": pl.Int64, "kind": pl.String, "power": pl.String, "used": pl.Boolean,
}  # fmt: skip


def _powers(game: Game, decision: str, moves: list[int]) -> list[tuple[str, int]]:
    """(kind, move) of each legal move that is a power at this decision."""
    core = constants()  # the move codes Game.describe reads
    if decision == "order":
        return [("activated", m) for m in moves if m > core["MV_POWER"]]
    if decision == "power":
        return [("activated", m) for m in moves if m != core["MV_DONE"]]
    if decision == "yes_no":
        return [("optional", 1)] if 1 in moves else []
    if decision in TRACK_DECISIONS:
        return [("track", m) for m in moves]
    if decision == "pod_place" and core["POD_AREA"] in moves:
        on_track = [m for m in moves if m < core["POD_SLOT"]]
        return [("special", on_track[0])] if on_track else []  # one offer for all
    return []


def observe_game(
    bots: str | BotSpec | Sequence[str | BotSpec],
    corporations: str | Sequence[str],
    *,
    players: int,
    seed: int,
    game_index: int,
) -> list[dict[str, Any]]:
    """One game's power opportunities: one row per (decision, power offered)."""
    game = Game(
        players=players, bots=bots, corporations=corporations, planets="random",
        seed=seed, game_index=game_index,
    )  # fmt: skip
    rows: list[dict[str, Any]] = []

    def record(g: Game, move: int) -> None:
        decision = g.decision or ""
        seat = g.decider
        offered = _powers(g, decision, g.legal_moves())
        corp = g.rules.data.corporations[g.player(seat)["corp"]]
        round_ = int(g.fields()["round"])
        rows.append(
            {"game": game_index, "seat": seat, "corporation": corp.name,
             "round": round_, "kind": "decision", "power": decision, "used": True}
        )  # fmt: skip
        for kind, m in offered:
            if kind == "optional":
                power, used = g.describe(1).removeprefix("use "), move == 1
            elif kind == "special":
                power, used = LIFEPOD_ON_TRACK, move < constants()["POD_SLOT"]
            else:
                power, used = g.describe(m), move == m
            rows.append(
                {
                    "game": game_index,
                    "seat": seat,
                    "corporation": corp.name,
                    "round": round_,
                    "kind": kind,
                    "power": power,
                    "used": used,
                }
            )

    game.play(on_decision=record)
    if game.status != "ok":
        # a game the engine had to stop (a bot going round, an engine fault)
        # would be counted as play: refuse it, loudly
        raise RuntimeError(
            f"power use: game {game_index} of seed {seed} ({corporations}) ended "
            f"with status {game.status!r}, not 'ok'; fix the bot or the engine first"
        )
    return rows


def power_use(
    bots: Sequence[str | BotSpec],
    corporations: Sequence[str],
    *,
    players: int = 2,
    n_games: int = 40,
    seed: int = 0,
    n_jobs: int = -1,
) -> pl.DataFrame:
    """Every bot plays ``n_games`` per corporation; their power opportunities.

    Each game seats the corporation at seat 0 against ``"random"``
    corporations; the opponents play the same bot. Rows of seat 0 only.
    """
    jobs = [
        (parse(bot), corp, i)
        for bot in bots
        for corp in corporations
        for i in range(n_games)
    ]
    results = Parallel(n_jobs=n_jobs, prefer="threads")(
        delayed(observe_game)(
            bot,
            [corp, *["random"] * (players - 1)],
            players=players,
            seed=seed,
            game_index=i,
        )
        for bot, corp, i in jobs
    )
    frames = []
    for (bot, _, _), rows in zip(jobs, results, strict=True):
        frame = pl.DataFrame(rows, schema=ROW_SCHEMA).filter(pl.col("seat") == 0)
        frames.append(frame.with_columns(bot=pl.lit(bot.label)))
    return pl.concat(frames)


def decision_mix(rows: pl.DataFrame) -> pl.DataFrame:
    """Decisions per game by kind, per bot and corporation (one column a kind).

    A corporation that skips a kind of play (moving rovers, say) stands out.
    """
    games = rows.group_by("bot", "corporation").agg(games=pl.col("game").n_unique())
    per = (
        rows.filter(pl.col("kind") == "decision")
        .group_by("bot", "corporation", "power")
        .agg(n=pl.len())
        .join(games, on=["bot", "corporation"])
        .with_columns(per_game=pl.col("n") / pl.col("games"))
    )
    wide = per.pivot("power", index=["bot", "corporation"], values="per_game")
    kinds = sorted(c for c in wide.columns if c not in ("bot", "corporation"))
    # the kinds in name order: a pivot's columns come in the order met
    return (
        wide.select("bot", "corporation", *kinds)
        .fill_null(0.0)
        .sort("bot", "corporation")
    )


def power_table(rows: pl.DataFrame) -> pl.DataFrame:
    """Per bot, corporation, kind and power: how often offered and used.

    ``offered`` decisions offering it, ``use_rate`` the share in which it was
    chosen, ``games`` with at least one offer, ``uses_per_game`` over those,
    ``round_rate`` the share of (game, round) pairs with an offer in which it
    was used at least once.
    """
    keys = ["bot", "corporation", "kind", "power"]
    rows = rows.filter(pl.col("kind") != "decision")
    rounds = (
        rows.group_by([*keys, "game", "round"])
        .agg(pl.col("used").any())
        .group_by(keys)
        .agg(round_rate=pl.col("used").mean())
    )
    return (
        rows.group_by(keys)
        .agg(
            offered=pl.len(),
            used=pl.col("used").sum(),
            games=pl.col("game").n_unique(),
        )
        .with_columns(
            use_rate=pl.col("used") / pl.col("offered"),
            uses_per_game=pl.col("used") / pl.col("games"),
        )
        .join(rounds, on=keys)
        .sort(keys)
    )


def outcome_table(
    bots: Sequence[str | BotSpec],
    *,
    players: int = 2,
    n_games: int = 2000,
    seed: int = 0,
    n_jobs: int = -1,
) -> pl.DataFrame:
    """Mean per-seat outcomes per bot and corporation (fast path, random boards)."""
    frames = [
        simulate(
            n_games,
            players=players,
            bots=parse(bot),
            corporations="random",
            planets="random",
            seed=seed,
            n_jobs=n_jobs,
        )
        for bot in bots
    ]
    games = pl.concat([f.with_columns(pl.col("bot").cast(pl.String)) for f in frames])
    stopped = games.filter(pl.col("status") != "ok")
    if stopped.height:
        raise RuntimeError(
            f"power use outcomes: {stopped.height} seats of games that did not end "
            f"'ok' ({stopped['bot'].unique().to_list()}); fix the bot or the engine "
            "first"
        )
    return (
        games.group_by("bot", "corporation")
        .agg(seats=pl.len(), **{c: pl.col(c).mean() for c in OUTCOMES})
        .with_columns(pl.col("corporation").cast(pl.String))
        .sort("bot", "corporation")
    )


def ignored_powers(
    table: pl.DataFrame,
    bots: str | Sequence[str],
    *,
    max_rate: float = 0.05,
    min_offers: int = 20,
) -> pl.DataFrame:
    """A corporation's own powers (activated, optional) these bots almost never use.

    Offered at least ``min_offers`` times, used in at most ``max_rate`` of the
    (game, round) pairs with an offer and in at most 2 x ``max_rate`` uses per
    game with an offer (a once-a-game power kept for the last round is used,
    though in few of its rounds); beside it, the random bot's rate and the
    reason from :data:`WHY_IGNORED` (empty: not explained).
    """
    names = [bots] if isinstance(bots, str) else list(bots)
    own = table.filter(pl.col("kind").is_in(OWN_KINDS))
    random = own.filter(pl.col("bot") == "random").select(
        "corporation", "power", random_round_rate="round_rate"
    )
    ignored = (
        own.filter(
            pl.col("bot").is_in(names)
            & (pl.col("offered") >= min_offers)
            & (pl.col("round_rate") <= max_rate)
            & (pl.col("uses_per_game") <= 2 * max_rate)
        )
        .join(random, on=["corporation", "power"], how="left", maintain_order="left")
        .sort("bot", "corporation", "power")
    )
    why = [
        WHY_IGNORED.get((corp, name, bot), WHY_IGNORED.get((corp, name), ""))
        for corp, name, bot in zip(
            ignored["corporation"],
            ignored["power"].str.split(":").list.first(),
            ignored["bot"],
            strict=True,
        )
    ]
    return ignored.with_columns(why=pl.Series(why, dtype=pl.String))


def _md(frame: pl.DataFrame, floats: str = ".2f") -> str:
    from pu_sim.report.markdown import frame_table

    return frame_table(frame, floats)


def report_text(
    *,
    bots: Sequence[str],
    players: int,
    n_games: int,
    command: str,
    table: pl.DataFrame,
    mix: pl.DataFrame,
    outcomes: pl.DataFrame,
    outcome_games: int,
) -> str:
    """The README: the powers ignored, the use table, decision mix, outcomes."""
    strong = bots[0]
    greedy = [b for b in bots if b != "random"]
    ignored = ignored_powers(table, greedy)
    own = table.filter(pl.col("kind").is_in(OWN_KINDS))
    lines = [
        f"# Power use: how often {strong} uses each corporation's powers",
        f"`{command}`",
        f"Slow-path games ({players} players, {n_games} games per corporation "
        f"and bot; bots: {', '.join(bots)}; planets and the other seats' "
        "corporations random): before every decision of the corporation's "
        "seat, which powers were legal and whether the bot chose one. "
        "`round_rate` is the share of (game, round) pairs offering the power "
        "in which the bot used it.",
        "## Powers the bots ignore",
        (
            f"Offered at least 20 times and used in at most 5% of the rounds "
            f"that offer them and at most 0.1 times a game ({', '.join(greedy)}; "
            "beside it the random bot's rate, and why):\n\n"
            + _md(
                ignored.select(
                    "bot",
                    "corporation",
                    "kind",
                    "power",
                    "offered",
                    "round_rate",
                    "uses_per_game",
                    "random_round_rate",
                    pl.when(pl.col("why") == "")
                    .then(pl.lit("**not explained**"))
                    .otherwise(pl.col("why"))
                    .alias("why"),
                )
            )
            if ignored.height
            else f"None: {', '.join(greedy)} use every power offered at least 20 "
            "times in more than 5% of the rounds that offer it."
        ),
        "## Every corporation's own powers",
        _md(
            own.select(
                "bot",
                "corporation",
                "kind",
                "power",
                "offered",
                "games",
                "use_rate",
                "uses_per_game",
                "round_rate",
            )
        ),
        "## Track choices",
        "Share of track decisions offering a track in which it was chosen:\n\n"
        + _md(
            table.filter(pl.col("kind") == "track").select(
                "bot", "corporation", "power", "offered", "use_rate"
            )
        ),
        "## Decisions per game by kind",
        _md(mix),
        "## Outcomes per corporation",
        f"Fast-path games ({players} players, {outcome_games:,} per bot, all "
        "boards random): mean per seat.\n\n" + _md(outcomes),
    ]
    return "\n\n".join(lines) + "\n"
