"""The report's sections, registered in the order a designer reads them.

A section is a function ``(page, ctx) -> result`` plus its name: it adds
headlines, tables, figures and text to the :class:`~pu_sim.report.page.Page`
when the games in the :class:`ReportContext` call for it, and returns what a
later section needs (``ctx.results[name]``), or None.  :data:`SECTIONS` is
the list :func:`pu_sim.report.reporting.write_study_report` writes, in
order; a new section is one function and one entry here (or a list passed
as ``sections=``), nothing else (docs/architecture.md, "A report section").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from pu_sim.report.page import Page
from pu_sim.report.policies import Policies
from pu_sim.report.runs import RunInfo
from pu_sim.report.sections.agreement import agreement_section, design_facts
from pu_sim.report.sections.boards import (
    breakdown_section,
    cell_section,
    interaction_section,
    label_balance,
)
from pu_sim.report.sections.bots import bot_section, robustness_section
from pu_sim.report.sections.calibration import (
    calibration_robustness,
    calibration_section,
)
from pu_sim.report.sections.feel import feel_section
from pu_sim.report.sections.rule_sets import side_by_side_section
from pu_sim.report.sections.seats import seat_section
from pu_sim.report.sections.shared import main_bot
from pu_sim.report.sections.skill import skill_section
from pu_sim.report.sections.solo import has_deck, solo_boards, solo_summary
from pu_sim.report.sections.solo_paired import (
    is_paired_deck_design,
    paired_calibration_section,
)
from pu_sim.report.sections.survival import survival_section
from pu_sim.report.sections.verdicts import verdict_section


@dataclass
class ReportContext:
    """What every section may read: the games, the runs, the policies, results.

    ``games`` are the games that finished ``ok`` (with ``n_bots`` and
    ``policy``); ``set_aside`` and ``confounded`` name the runs the warnings
    section kept out of every section and out of the seat analysis;
    ``results`` holds each earlier section's return value by its name.
    """

    games: pl.DataFrame
    infos: Sequence[RunInfo]
    policies: Policies
    round_scores: Callable[[], pl.DataFrame | None]
    set_aside: list[str] = field(default_factory=list)
    confounded: list[str] = field(default_factory=list)
    results: dict[str, Any] = field(default_factory=dict)
    agree_with: Sequence[Path] = ()

    @functools.cached_property
    def design(self) -> dict[str, Any]:
        """The study's policies and its primary games per player count."""
        primary = self.primary
        per_count = (
            primary.group_by("n_players")
            .agg(pl.struct("run", "game_id").n_unique().alias("games"))
            .rows()
            if primary.height
            else []
        )
        return design_facts(self.policies.chosen, dict(per_count))

    @functools.cached_property
    def multiplayer(self) -> pl.DataFrame:
        """The 2-6 player games the warnings left in."""
        games = self.games.filter(~pl.col("run").is_in(self.set_aside))
        return games.filter(pl.col("n_players") >= 2)

    @functools.cached_property
    def one_bot(self) -> pl.DataFrame:
        """Multiplayer games with one bot at every seat (balance, ladder)."""
        return self.multiplayer.filter(pl.col("n_bots") == 1)

    @functools.cached_property
    def balance(self) -> pl.DataFrame:
        """The one-bot games of the study's primary and second policies."""
        chosen = self.policies.chosen
        if not chosen:
            return self.one_bot
        return self.one_bot.filter(pl.col("bot").cast(pl.String).is_in(chosen))

    @functools.cached_property
    def opinions(self) -> pl.DataFrame:
        """The balance games plus the third policy's (seats: one table per bot)."""
        if self.policies.third is None:
            return self.balance
        third = self.one_bot.filter(
            pl.col("bot").cast(pl.String) == self.policies.third
        )
        return pl.concat([self.balance, third]) if third.height else self.balance

    @functools.cached_property
    def primary(self) -> pl.DataFrame:
        """The balance games of the primary policy (or the main bot's)."""
        if self.balance.height == 0:
            return self.balance
        bot = self.policies.primary or main_bot(self.balance)
        return self.balance.filter(pl.col("bot") == bot)

    @functools.cached_property
    def solo(self) -> pl.DataFrame:
        """Solo games."""
        return self.games.filter(pl.col("n_players") == 1)


SectionFn = Callable[[Page, ReportContext], Any]


@dataclass(frozen=True)
class Section:
    """One registered section: its name (for ``ctx.results``) and its writer."""

    name: str
    write: SectionFn


def _solo(page: Page, ctx: ReportContext) -> None:
    """Solo scores, boards, then one target calibration per bot.

    Runs marked for the calibration (``role``) are its games when there are
    any; a skill ladder's solo games then only join the score summary.
    """
    solo = ctx.solo
    if solo.height == 0:
        return
    solo_summary(page, solo)
    if (solo["role"] == "calibration").any():
        solo = solo.filter(pl.col("role") == "calibration")
    if not has_deck(solo):
        return
    if is_paired_deck_design(solo):  # setups replayed under many decks
        paired_calibration_section(page, solo)
        return
    solo_boards(page, solo)
    # One calibration per bot: the target is for every board, so corporations
    # and planets are pooled here (their own difficulty is the section above).
    if solo["bot"].n_unique() == 1:
        only = str(solo["bot"][0])
        calibration_section(page, solo, "", f"Solo target calibration ({only})")
        return
    fits: dict[str, pl.DataFrame] = {}
    for key, part in solo.partition_by(
        ["bot"], as_dict=True, maintain_order=True
    ).items():
        name = " / ".join(str(k) for k in key)
        fit = calibration_section(page, part, name, f"Solo target calibration: {name}")
        if fit is not None:
            fits[name] = fit
    calibration_robustness(page, fits)


def _verdicts(page: Page, ctx: ReportContext) -> Any:
    """The one-look verdict table (every one-bot run: the ladder's too)."""
    if ctx.multiplayer.height == 0:
        return None
    return verdict_section(page, ctx.one_bot, ctx.policies)


def _agreement(page: Page, ctx: ReportContext) -> Any:
    """The verdicts against other studies' (``agree_with``)."""
    return agreement_section(
        page, ctx.results.get("verdicts"), ctx.agree_with, ctx.design
    )


def _seats(page: Page, ctx: ReportContext) -> Any:
    """Seat order, on runs whose boards rotate over the seats."""
    if ctx.multiplayer.height == 0:
        return None
    unconfounded = ctx.opinions.filter(~pl.col("run").is_in(ctx.confounded))
    return seat_section(page, unconfounded)


def _boards(kind: str, title: str) -> SectionFn:
    def write(page: Page, ctx: ReportContext) -> None:
        if ctx.balance.height == 0:
            return
        many = ctx.balance["bot"].n_unique() > 1
        alone = ctx.policies.second is None  # else the verdicts headline them
        who = " and ".join(ctx.policies.chosen) or str(main_bot(ctx.balance))
        label_balance(page, ctx.balance, kind, f"{title} ({who})", many, alone)

    return write


def _survival(page: Page, ctx: ReportContext) -> None:
    """Which verdicts survive a change of bot."""
    verdicts = ctx.results.get("verdicts")
    if ctx.balance.height and verdicts is not None:
        survival_section(page, ctx.one_bot, verdicts, ctx.policies)


def _on_primary(section: Callable[[Page, pl.DataFrame], Any]) -> SectionFn:
    def write(page: Page, ctx: ReportContext) -> Any:
        return section(page, ctx.primary) if ctx.balance.height else None

    return write


def _breakdown(page: Page, ctx: ReportContext) -> None:
    """Where each corporation's and planet's points come from."""
    if ctx.balance.height:
        breakdown_section(page, ctx.balance)


def _bots(page: Page, ctx: ReportContext) -> None:
    """Bots against each other (games with mixed bots)."""
    if ctx.multiplayer.height:
        bot_section(page, ctx.multiplayer.filter(pl.col("n_bots") > 1))


def _robustness(page: Page, ctx: ReportContext) -> None:
    """Whether the seat findings hold under each bot."""
    if ctx.multiplayer.height:
        robustness_section(page, ctx.results.get("seats"))


def _side_by_side(page: Page, ctx: ReportContext) -> None:
    """Rule sets or variants side by side."""
    side_by_side_section(page, ctx.games.filter(pl.col("n_players") >= 2), ctx.infos)


def _skill(page: Page, ctx: ReportContext) -> None:
    """Skill depth along the study's ladder."""
    skill_section(page, ctx.games, ctx.policies)


def _feel(page: Page, ctx: ReportContext) -> None:
    """Game feel and length under the primary policy."""
    if ctx.policies.primary is not None:
        feel_section(page, ctx.games, ctx.policies.primary, ctx.round_scores())


SECTIONS: list[Section] = [
    Section("solo", _solo),
    Section("verdicts", _verdicts),
    Section("agreement", _agreement),
    Section("seats", _seats),
    Section("corporations", _boards("corporation", "Corporations")),
    Section("planets", _boards("planet", "Planets")),
    Section("survival", _survival),
    Section("cells", _on_primary(cell_section)),
    Section("interaction", _on_primary(interaction_section)),
    Section("breakdown", _breakdown),
    Section("bots", _bots),
    Section("robustness", _robustness),
    Section("side_by_side", _side_by_side),
    Section("skill", _skill),
    Section("feel", _feel),
]
"""Every section of a report, in the order they are written."""
