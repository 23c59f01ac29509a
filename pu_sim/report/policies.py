"""Which bot is which in a study: the primary policy, the second, the third, the ladder.

A report never names a bot by hand: every sentence says which bot played,
taken from the run manifests.  A study marks its runs' roles in their
metadata (``role``: ``primary``, ``second``, ``third``, ``ladder``,
``calibration``;
``ladder``: the skill levels, weakest first); a report over runs without
roles falls back on the data: the primary policy is the bot that played the
most seats of one-bot multiplayer games, and the second is the other one-bot
policy that played the most of the same setups.  The third policy (another
family's, beside the verdicts) is only ever found by its role.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from pu_sim.report.runs import RunInfo

__all__ = ["Policies", "find_policies"]


@dataclass(frozen=True)
class Policies:
    """The study's bots by role (labels as in the result frame's ``bot``)."""

    primary: str | None
    second: str | None = None
    ladder: tuple[str, ...] = ()
    third: str | None = None
    """A policy of another family beside the verdicts; it never votes in them."""

    @property
    def chosen(self) -> list[str]:
        """The primary and second policies that exist, in that order."""
        return [b for b in (self.primary, self.second) if b is not None]

    @property
    def opinions(self) -> list[str]:
        """Every policy that played the balance setups: the chosen and the third."""
        return [*self.chosen, *([self.third] if self.third else [])]

    def words(self) -> str:
        """Who played, in one sentence fragment."""
        if self.primary is None:
            return "no one-bot multiplayer games"
        if self.second is None:
            return f"every seat played by **{self.primary}**"
        return (
            f"every seat played by **{self.primary}**, checked by **{self.second}** "
            "on the same setups (paired)"
        )


def _role_bot(infos: Sequence[RunInfo], role: str) -> str | None:
    """The bot of the runs with this role (their first seat's)."""
    for info in infos:
        if info.role == role and info.bot_specs:
            return info.bot_specs[0].label
    return None


def find_policies(infos: Sequence[RunInfo], games: pl.DataFrame) -> Policies:
    """The policies of a study from its runs' roles, else from its games.

    ``games`` has ``bot``, ``group``, ``n_players`` and the one-bot marker
    ``n_bots`` (1 where every seat of the game had the same bot).
    """
    homo = games.filter((pl.col("n_players") >= 2) & (pl.col("n_bots") == 1))
    present = set(games["bot"].cast(pl.String).unique().to_list())
    primary = _role_bot(infos, "primary")
    second = _role_bot(infos, "second")
    if primary is None and homo.height:
        counts = homo.group_by(pl.col("bot").cast(pl.String)).len()
        primary = str(counts.sort(["len", "bot"], descending=[True, False])["bot"][0])
    if primary is not None and second is None and homo.height:
        second = _most_shared(homo, primary)
    ladder = next((i.ladder for i in infos if i.ladder), ())
    third = _role_bot(infos, "third")
    return Policies(
        primary=primary if primary in present else None,
        second=second if second in present else None,
        ladder=tuple(b for b in ladder if b in present),
        third=third if third in present and third not in (primary, second) else None,
    )


def _most_shared(homo: pl.DataFrame, primary: str) -> str | None:
    """The other bot that played the most setups (groups) the primary played."""
    bot = pl.col("bot").cast(pl.String)
    mine = homo.filter(bot == primary).select("group").unique()
    others = (
        homo.filter(bot != primary)
        .select(bot.alias("bot"), "group")
        .unique()
        .join(mine, on="group", maintain_order="left")
        .group_by("bot")
        .len()
        .filter(pl.col("len") >= 2)
        .sort(["len", "bot"], descending=[True, False])
    )
    return str(others["bot"][0]) if others.height else None
