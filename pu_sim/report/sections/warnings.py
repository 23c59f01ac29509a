"""What a reader must know before any number: partial runs, mixed rules, confounds.

These open the report, above the verdicts: a report over an interrupted run
says so; runs played under different rule options are named (their games are
not silently one sample); a seat study whose seats keep their own boards
(seat and board confounded) is refused a seat section.
"""

from __future__ import annotations

from collections.abc import Sequence

from pu_sim.report.page import Page
from pu_sim.report.runs import RunInfo

__all__ = ["confounded_runs", "rule_key", "rule_sets", "warnings_section"]


def confounded_runs(infos: Sequence[RunInfo]) -> list[str]:
    """Multiplayer runs where each seat keeps boards of its own, unrotated.

    A seat's corporation or planet pool differs from another seat's, and the
    setups are not rotated over the seats (group size below the player
    count), so a seat effect there cannot be told from a board effect.
    """
    out = []
    for info in infos:
        players = info.players if isinstance(info.players, int) else 0
        if players < 2 or info.group_size % players == 0:
            continue
        pools = [info.seat_corporations, info.seat_planets]
        if any(len(set(p)) > 1 for p in pools):
            out.append(info.name)
    return out


def rule_key(info: RunInfo) -> str:
    """The rules a run was played under: its options and its variant."""
    options = ", ".join(f"{k}={v}" for k, v in sorted(info.options.items()))
    return "; ".join(p for p in (info.variant, options) if p)


def rule_sets(infos: Sequence[RunInfo]) -> dict[str, list[str]]:
    """Run names by the rules they were played under, in run order."""
    out: dict[str, list[str]] = {}
    for info in infos:
        out.setdefault(rule_key(info), []).append(info.name)
    return out


def warnings_section(
    page: Page, infos: Sequence[RunInfo]
) -> tuple[list[str], list[str]]:
    """Add the warnings to the top of the page.

    Returns the confounded runs (no seat section) and the multiplayer runs
    set aside because they were played under other rule options than the
    variant with the most games (never pooled with it).
    """
    notes = []
    partial = [i for i in infos if i.partial]
    if partial:
        items = ", ".join(
            f"`{i.name}` ({i.completed_games or 0:,} of {i.n_games:,} games, "
            f"{i.status})"
            for i in partial
        )
        notes.append(
            f"**Partial data.** {len(partial)} run(s) stopped before their last "
            f"game: {items}. Every number below covers only the games played; "
            "run the study's command again to finish them."
        )
    multi = [i for i in infos if isinstance(i.players, int) and i.players >= 2]
    variants = rule_sets(multi)
    set_aside: list[str] = []
    if len(variants) > 1:
        games = {i.name: i.n_games if isinstance(i.n_games, int) else 0 for i in multi}
        kept = max(variants, key=lambda k: sum(games[n] for n in variants[k]))
        items = "; ".join(
            f"{', '.join(f'`{n}`' for n in names)}: {key}"
            for key, names in variants.items()
        )
        set_aside = [n for k, names in variants.items() if k != kept for n in names]
        notes.append(
            "**Different rule options.** These multiplayer runs were played under "
            f"different rules ({items}). Games of different rules are "
            f"never pooled: the multiplayer sections read only the runs with "
            f"{kept}; the section *Rules side by side* sets every rule set's "
            "headline numbers next to each other (`pu-sim compare` plays two rule "
            "sets on the same setups, for a paired comparison)."
        )
    confounded = confounded_runs(infos)
    if confounded:
        notes.append(
            "**Seat and board confounded.** In "
            + ", ".join(f"`{n}`" for n in confounded)
            + " each seat draws from its own corporations or planets and the "
            "boards are not rotated over the seats (group size below the player "
            "count), so a seat's results are its boards' as much as its seat's: "
            "these runs are left out of the seat section. Play seat studies with "
            "every seat drawing from the same pools, or with `group_size` equal "
            "to the player count."
        )
    if notes:
        page.opening.append("## Read this first\n\n" + "\n\n".join(notes))
    return confounded, set_aside
