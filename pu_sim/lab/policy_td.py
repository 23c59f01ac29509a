"""The policy bot's network, learned by temporal-difference self-play.

``python -m pu_sim.lab.policy_td`` learns the weights of the policy bot
(``policy_td``; core/bots/policy_net.pxi reads them, core/bots/policy.pxi
plays them) from zero by self-play in the core, one game after another, and
writes them to ``pu_sim/data/fitted/policy.npz`` with the command that made
them.  The games cycle over the player counts in chunks (random corporations
and planets); every seat of a game is the learning bot, and each seat's
chosen afterstates move toward their TD(lambda) returns at the game's end
(core/bots/policy_train.pxi), each weight by the step size times its own
temporal coherence rate (how consistently its corrections agree in sign).
The step size and the exploration's temperature fall linearly from their
start to their end values over the run, so the last games polish what the
first found.  The weights are a pure function of the flags (one thread; the
seed fixes the games).

``--tune C,F`` then rescales the tables by a direct search on the one-ply
policy's solo score, C generations per table and F per part of the game
(``pu_sim.lab.policy_scales``): TD's values agree with the play that made
them, and the search moves the play off that fixed point.

``--measure`` then reports the strength of what it learned beside greedy and
the ``--against`` bot (greedy_tuned unless told): the solo mean score on
random boards and the share of that bot's seats it finishes ahead of at
``--measure-players`` (2 and 4 unless told), with each bot's games per
second in the same run (docs/bots.md quotes it).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pu_sim import bots
from pu_sim.bots import fitted
from pu_sim.engine import core, load_rules
from pu_sim.lab.common import game_scores, paired, share_row
from pu_sim.simulation.plan import Plan
from pu_sim.simulation.seeds import SeedLike, derive
from pu_sim.simulation.table import TableSetup
from pu_sim.studies.flags import add_jobs

Floats = npt.NDArray[np.float64]

COMMAND = "python -m pu_sim.lab.policy_td"


@dataclass(frozen=True)
class Schedule:
    """How the network is learned: the games, their player counts, the steps."""

    games: int = 120_000
    chunk: int = 2_000
    players: tuple[int, ...] = (1, 2, 3, 4)
    alpha: float = 1.0  # step size at the start (fraction of the TD error)
    alpha_end: float = 0.5
    lam: float = 0.8  # TD(lambda)'s lambda
    explore: float = 0.3  # softmax temperature (medals) at the start
    explore_end: float = 0.05
    seed: int = 2061
    watch: str = ""  # learn from this bot's games (every seat) instead of self-play
    coherence: bool = True  # temporal coherence: each weight's own step size
    tune: tuple[int, int] = (0, 0)  # generations of the scales' coarse, fine search
    tune_games: int = 400  # solo games a candidate scale plays (policy_scales)

    def at(self, done: int) -> tuple[float, float]:
        """The step size and temperature for the chunk that starts at ``done``."""
        f = min(1.0, done / max(1, self.games))
        return (self.alpha + (self.alpha_end - self.alpha) * f,
                self.explore + (self.explore_end - self.explore) * f)  # fmt: skip


def zeros() -> Floats:
    """An untrained network (every weight 0: the value is the score now)."""
    return np.zeros(core.constants()["POLICY_N"], np.float64)


def _plan(players: int, seed: SeedLike, bots: Any = "policy_td") -> Plan:
    setup = TableSetup(
        players=players, corporations="random", planets="random", bots=bots
    )
    return Plan.of(setup, seed=seed)


def train(
    schedule: Schedule,
    weights: Floats | None = None,
    log: Callable[[str], None] | None = None,
) -> Floats:
    """Learn the network by ``schedule`` (from ``weights``, else from zero)."""
    w = zeros() if weights is None else np.array(weights, np.float64)
    rules = load_rules().core
    bot = schedule.watch or "policy_td"
    plans = {p: _plan(p, derive(schedule.seed, "policy_td", "train", p), bot)
             for p in schedule.players}  # fmt: skip
    done, k, t0 = 0, 0, time.time()
    tc = np.zeros(2 * len(w)) if schedule.coherence else None
    first = dict.fromkeys(schedule.players, 0)
    while done < schedule.games:
        p = schedule.players[k % len(schedule.players)]
        k += 1
        n = min(schedule.chunk, schedule.games - done)
        alpha, explore = schedule.at(done)
        plan = plans[p]
        mean, _, mse = core.policy_train(
            rules,
            plan.spec,
            w,
            plan.key,
            first[p],
            n,
            (alpha, schedule.lam, explore),
            watch=bool(schedule.watch),
            coherence=tc,
        )
        first[p] += n
        done += n
        if log is not None:
            log(f"{done:8d} games  {p} players  alpha {alpha:.3f}  explore "
                f"{explore:.3f}  score {mean:6.2f}  rmse {mse**0.5:5.2f}  "
                f"{time.time() - t0:6.0f}s")  # fmt: skip
    return w


def arrays(weights: Floats) -> dict[str, Floats]:
    """The flat weight vector cut into the table's named arrays."""
    c, offsets = core.constants(), core.policy_offsets()
    layout = fitted.TABLES["policy"]
    out = {}
    for name in layout.arrays:
        shape = tuple(int(k or 0) for k in layout.shape(name, c))
        size = int(np.prod(shape))
        out[name] = weights[offsets[name] : offsets[name] + size].reshape(shape)
    return out


def write(weights: Floats, command: str, seed: int, folder: Path | None = None,
          notes: str | None = None) -> Path:  # fmt: skip
    """Write the network as the ``policy`` table (``folder``: the package's)."""
    provenance = fitted.Provenance(
        command=command, seed=seed, engine_version=core.engine_version(), notes=notes
    )
    return fitted.write_table("policy", arrays(weights), provenance, folder=folder,
                              constants=core.constants())  # fmt: skip


def tables_with(weights: Floats, folder: Path) -> Path:
    """A copy of the packaged fitted tables in ``folder`` with this network."""
    folder.mkdir(parents=True, exist_ok=True)
    for f in fitted.FITTED_DIR.iterdir():
        if f.suffix in (".npz", ".toml") and not f.name.startswith("policy."):
            shutil.copy(f, folder / f.name)
    write(weights, "measured copy", 0, folder=folder)
    return folder


def _timed(
    seats: Sequence[str], n: int, seed: SeedLike, tables: Path
) -> tuple[Floats, float]:
    """Scores [game, seat] of n random-board games on one thread, and games/s."""
    t0 = time.time()
    scores = game_scores([bots.parse(b) for b in seats], n, seed, 1, tables, "random")
    return scores, n / max(time.time() - t0, 1e-9)


def measure(tables: Path, solo: int, setups: int, seed: int,
            player_counts: Sequence[int] = (2, 4),
            against: str = "greedy_tuned") -> dict[str, Any]:  # fmt: skip
    """The policy's strength with the tables of ``tables`` (random boards).

    ``solo``: games for each bot's solo mean and games/s (policy_td, greedy,
    ``against``).  ``setups``: setups per player count on which one policy
    seat sits among ``against`` seats in every cyclic seat order; the share
    of its opponents it finishes ahead of (ties half), with the 95% interval
    over setups (lab.common.share_row).
    """
    out: dict[str, Any] = {"solo": {}, "ahead": {}, "against": against}
    for bot in ("policy_td", "greedy", against):
        s, rate = _timed([bot], solo, seed, tables)
        mean, half = paired(s[:, 0], 0.0)
        out["solo"][bot] = {"mean": mean, "half_width": half,
                            "games_per_s": rate}  # fmt: skip
    for players in player_counts:
        row = share_row(bots.parse("policy_td"), bots.parse(against), players,
                        setups, seed, 1, tables, "random")  # fmt: skip
        _, field_rate = _timed([against] * players, setups, seed, tables)
        _, pol_rate = _timed(["policy_td"] * players, setups, seed, tables)
        out["ahead"][players] = {"share": row["ahead"], "half_width": row["half_width"],
                                 "policy_games_per_s": pol_rate,
                                 "field_games_per_s": field_rate}  # fmt: skip
    return out


def report(result: dict[str, Any]) -> list[str]:
    """The measurement as lines of text."""
    lines = []
    for bot, r in result["solo"].items():
        lines.append(f"solo {bot:13s} mean {r['mean']:6.2f} +- {r['half_width']:.2f}"
                     f"  {r['games_per_s']:7.1f} games/s")  # fmt: skip
    field = result["against"]
    for players, r in result["ahead"].items():
        lines.append(f"{players} players: policy_td ahead of {100 * r['share']:.1f}% "
                     f"+- {100 * r['half_width']:.1f} of {field} opponents; "
                     f"games/s policy_td {r['policy_games_per_s']:.1f}, {field} "
                     f"{r['field_games_per_s']:.1f}")  # fmt: skip
    return lines


def _flag(name: str, value: object) -> str:
    option = "--" + name.replace("_", "-")
    if isinstance(value, bool):
        return option if value else "--no-" + option[2:]
    shown = ",".join(map(str, value)) if isinstance(value, tuple) else value
    return f"{option} {shown}"


def command(schedule: Schedule) -> str:
    """The command that learns this schedule's network and writes it."""
    d = Schedule()
    flags = [_flag(name, value) for name, value in (
        ("games", schedule.games), ("chunk", schedule.chunk),
        ("players", schedule.players),
        ("alpha", schedule.alpha), ("alpha_end", schedule.alpha_end),
        ("lam", schedule.lam), ("explore", schedule.explore),
        ("explore_end", schedule.explore_end), ("seed", schedule.seed),
        ("watch", schedule.watch), ("coherence", schedule.coherence),
        ("tune", schedule.tune), ("tune_games", schedule.tune_games),
    ) if value != getattr(d, name) or name in ("games", "seed")]  # fmt: skip
    return " ".join([COMMAND, *flags, "--write"])


def _player_counts(value: str) -> tuple[int, ...]:
    """``--players`` and ``--measure-players``: comma-separated counts 1-6."""
    try:
        counts = tuple(int(v) for v in value.split(","))
    except ValueError:
        counts = ()
    if not counts or not all(1 <= c <= 6 for c in counts):
        raise argparse.ArgumentTypeError(
            f"player counts are comma-separated whole numbers 1-6, not {value!r}"
        )
    return counts


def _generations(value: str) -> tuple[int, int]:
    """``--tune``: the coarse and the fine stage's generations, ``C,F``."""
    try:
        counts = tuple(int(v) for v in value.split(","))
    except ValueError:
        counts = ()
    if len(counts) != 2 or min(counts) < 0:
        raise argparse.ArgumentTypeError(
            f"--tune takes two whole numbers COARSE,FINE (e.g. 60,20), not {value!r}"
        )
    return counts[0], counts[1]


def _parser() -> argparse.ArgumentParser:
    d = Schedule()
    ap = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=d.games)
    ap.add_argument("--chunk", type=int, default=d.chunk)
    ap.add_argument("--players", type=_player_counts, default=d.players)
    ap.add_argument("--alpha", type=float, default=d.alpha)
    ap.add_argument("--alpha-end", type=float, default=d.alpha_end)
    ap.add_argument("--lam", type=float, default=d.lam)
    ap.add_argument("--explore", type=float, default=d.explore)
    ap.add_argument("--explore-end", type=float, default=d.explore_end)
    ap.add_argument("--seed", type=int, default=d.seed)
    ap.add_argument("--watch", default=d.watch, metavar="BOT",
                    help="learn from this bot's games, not self-play (policy_td: "
                         "the committed network's, with its search)")  # fmt: skip
    ap.add_argument("--coherence", action=argparse.BooleanOptionalAction,
                    default=d.coherence,
                    help="temporal coherence: each weight's own step size")  # fmt: skip
    ap.add_argument(
        "--tune", type=_generations, default=d.tune, metavar="COARSE,FINE",
        help="then search the tables' scales on solo play for these "
        "generations (pu_sim.lab.policy_scales; default 0,0: none)",
    )  # fmt: skip
    ap.add_argument(
        "--tune-games", type=int, default=d.tune_games,
        help=f"solo games a candidate plays (default {d.tune_games})",
    )  # fmt: skip
    add_jobs(ap)  # --tune's workers: the same weights whatever the count
    ap.add_argument("--init", type=Path, help="start from these weights (.npy)")
    ap.add_argument("--save", type=Path, help="also save the weights here (.npy)")
    ap.add_argument("--write", action="store_true",
                    help="write pu_sim/data/fitted/policy.npz and .toml")  # fmt: skip
    ap.add_argument("--measure", type=int, default=0, metavar="N",
                    help="then measure: N solo games per bot, N/4 setups at "
                    "each of --measure-players")  # fmt: skip
    ap.add_argument(
        "--against",
        default="greedy_tuned",
        metavar="BOT",
        help="--measure's opponents (default greedy_tuned)",
    )
    ap.add_argument(
        "--measure-players",
        type=_player_counts,
        default=(2, 4),
        metavar="COUNTS",
        help="--measure's player counts (default 2,4)",
    )
    return ap


def parse(argv: Sequence[str] | None = None) -> tuple[Schedule, argparse.Namespace]:
    """The schedule the flags ask for, and the other flags."""
    ap = _parser()
    a = ap.parse_args(argv)
    if a.write and a.init is not None:
        ap.error("--write: the packaged network is learned from zero (no --init)")
    if a.tune_games < 1:
        ap.error(f"--tune-games: at least 1 game, not {a.tune_games}")
    if a.measure and 1 in a.measure_players:
        ap.error("--measure-players: counts 2-6 (solo is measured on its own)")
    for flag, bot in (("--watch", a.watch), ("--against", a.against)):
        try:
            if bot:
                bots.parse(bot)
        except ValueError as exc:  # before the training, not after it
            ap.error(f"{flag}: {exc}")
    schedule = Schedule(
        games=a.games, chunk=a.chunk, lam=a.lam, seed=a.seed,
        players=a.players,
        alpha=a.alpha, alpha_end=a.alpha_end,
        explore=a.explore, explore_end=a.explore_end, watch=a.watch,
        coherence=a.coherence, tune=a.tune, tune_games=a.tune_games,
    )  # fmt: skip
    return schedule, a


def main(argv: Sequence[str] | None = None) -> int:
    """Learn the network; write it with ``--write``, measure it with ``--measure``."""
    schedule, a = parse(argv)
    init = None if a.init is None else np.load(a.init)
    weights = train(schedule, init, log=lambda line: print(line, flush=True))
    if any(schedule.tune):
        from pu_sim.lab import policy_scales

        weights = policy_scales.tune(
            weights,
            schedule.tune,
            schedule.seed,
            schedule.tune_games,
            a.jobs,
            log=lambda line: print(line, flush=True),
        )
    if a.save is not None:
        np.save(a.save, weights)
    if a.write:
        print(write(weights, command(schedule), a.seed), flush=True)
    if a.measure:
        with tempfile.TemporaryDirectory() as tmp:
            tables = tables_with(weights, Path(tmp))
            result = measure(tables, a.measure, max(1, a.measure // 4), a.seed,
                             a.measure_players, a.against)  # fmt: skip
            for line in report(result):
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
