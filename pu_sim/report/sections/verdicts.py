"""The verdicts that open a report: how far each board is from fair, under two bots.

Per player count, each corporation and planet's win rate minus 1/n (percentage
points) and score against its table's mean, with intervals that treat a setup
as the unit, under the primary policy and the second; each finding labelled
robust, bot-dependent or unresolved (:mod:`pu_sim.analysis.verdicts`), and the
two policies' rank agreement.  Only robust findings are stated as findings.
A third policy of another family, where the study played one, is read beside
each row (:mod:`pu_sim.analysis.third_policy`) and never changes a label.
"""

from __future__ import annotations

from typing import Any

import polars as pl
from matplotlib.figure import Figure

from pu_sim import analysis
from pu_sim.analysis.third_policy import GLOSSARY as THIRD_GLOSSARY
from pu_sim.analysis.third_policy import READINGS as THIRD_READINGS
from pu_sim.report import plots
from pu_sim.report.markdown import fmt, md_table
from pu_sim.report.page import Page
from pu_sim.report.policies import Policies

__all__ = ["verdict_section"]

CLUSTER = "group"
"""The setup: the unit of every interval here (a setup is played once per seat
with the boards rotated, and the second policy replays the same setups)."""

KINDS = ("corporation", "planet")


def _pp(r: dict[str, Any], est: str, lo: str, hi: str, spec: str = "+.1f") -> str:
    return f"{fmt(r[est], spec)} [{fmt(r[lo], spec)}, {fmt(r[hi], spec)}]"


def _one_policy(games: pl.DataFrame) -> pl.DataFrame:
    """The one-look table of one policy (its columns ``*_a``), no labels."""
    table = analysis.verdict_table(games, games, cluster=CLUSTER, replicate=False)
    return table.select(
        "n_players",
        "kind",
        "name",
        "win_pp_a",
        "win_lower_a",
        "win_upper_a",
        "score_a",
        "score_lower_a",
        "score_upper_a",
    )


def verdict_section(
    page: Page, homo: pl.DataFrame, policies: Policies
) -> pl.DataFrame | None:
    """The one-look table, its figure, the rank agreement and the headlines.

    Returns the table (None when there is nothing to judge).
    """
    a_name, b_name = policies.primary, policies.second
    if a_name is None:
        return None
    bot = pl.col("bot").cast(pl.String)
    games_a = homo.filter(bot == a_name)
    if games_a["corporation"].n_unique() < 2 and games_a["planet"].n_unique() < 2:
        return None
    if b_name is None:
        table = _one_policy(games_a)
    else:
        games_b = homo.filter(bot == b_name)
        table = analysis.verdict_table(games_a, games_b, cluster=CLUSTER)
    c_name = policies.third if b_name is not None else None
    games_c = homo.filter(bot == c_name) if c_name else homo.clear()
    if games_c.height:
        table = analysis.third_opinion(table, games_c, cluster=CLUSTER)
    else:
        c_name = None
    page.table("verdicts", table)
    two = b_name is not None
    parts = [
        f"Per player count, how far each corporation and planet is from fair with "
        f"{policies.words()}: the win rate minus the fair share 1/n in percentage "
        "points (pp), and the mean score minus the mean score of its own table "
        "(points), each with a 95% interval that treats a setup as the unit "
        "(cluster-robust, CR1), sorted by the win-rate effect under "
        f"{a_name}. "
        + (
            "The setups were split in two halves: every verdict (win rate; *score "
            "verdict* for the score) is declared on one half and confirmed on the "
            "other, and the table's estimates are over every setup. "
            + glossary_text()
            + " Only robust findings are findings; a bot-dependent one says more "
            "about the bots than the game." + (_third_text(c_name) if c_name else "")
            if two
            else "No second policy played these setups, so no finding can be "
            "called robust: every effect below is one bot's."
        )
    ]
    for (n,), part in table.partition_by(
        "n_players", as_dict=True, maintain_order=True
    ).items():
        parts.append(f"**{n} players**\n\n" + _md(part, a_name, b_name, c_name))
    parts.append(
        page.figure(
            "verdicts",
            _figure(table, a_name, b_name, c_name),
            _caption(a_name, b_name, c_name),
        )
    )
    if two:
        _headlines(page, table, a_name, str(b_name))
        if c_name:
            _third_headlines(page, table, games_c, c_name)
        parts.append(_agreement(page, homo, a_name, str(b_name)))
    else:
        page.headlines.append(
            f"**Balance ({a_name} only):** no second policy played these setups, "
            "so no corporation or planet finding is labelled robust."
        )
    page.opening.append(
        "\n\n".join([f"## Verdicts at a glance ({_who(a_name, b_name)})", *parts])
    )
    return table


def glossary_text() -> str:
    """The labels' meanings, from the code that defines them."""
    return " ".join(
        f"**{name}**: {meaning}."
        for name, meaning in analysis.verdicts.GLOSSARY.items()
    )


def _who(a: str, b: str | None) -> str:
    return a if b is None else f"{a}, checked by {b}"


def _third_text(c: str) -> str:
    """How the third opinion is read, from the code that defines its readings."""
    meanings = " ".join(
        f"*{name}*: {meaning}." for name, meaning in THIRD_GLOSSARY.items()
    )
    return (
        f" **Third opinion** ({c}, a policy of another family, on some of the same "
        "setups): its win rate minus 1/n over the setups it played, read against "
        f"the direction of the first policy's; it never changes a label. {meanings}"
    )


def _md(part: pl.DataFrame, a: str, b: str | None, c: str | None = None) -> str:
    rows = []
    for r in part.iter_rows(named=True):
        row = [
            str(r["kind"]),
            str(r["name"]),
            _pp(r, "win_pp_a", "win_lower_a", "win_upper_a"),
        ]
        if b is not None:
            row += [
                _pp(r, "win_pp_b", "win_lower_b", "win_upper_b"),
                f"**{r['label']}**" + (" (size differs)" if r["size_differs"] else ""),
                _confirmed(r),
            ]
        if c is not None:
            row.append(_third_cell(r))
        row.append(_pp(r, "score_a", "score_lower_a", "score_upper_a"))
        if b is not None:
            row += [
                _pp(r, "score_b", "score_lower_b", "score_upper_b"),
                f"*{r['score_label']}*",
            ]
        rows.append(row)
    header = ["kind", "name", f"win - 1/n, pp ({a})"]
    if b is not None:
        header += [f"win - 1/n, pp ({b})", "verdict", "confirming half, pp (a / b)"]
    if c is not None:
        header.append(f"third opinion: win - 1/n, pp ({c})")
    header.append(f"score vs table, points ({a})")
    if b is not None:
        header += [f"score vs table, points ({b})", "score verdict"]
    return md_table(rows, header)


def _third_cell(r: dict[str, Any]) -> str:
    """The third policy's estimate and reading (a dash where it did not play)."""
    if r["third"] is None:
        return "–"
    return _pp(r, "win_pp_c", "win_lower_c", "win_upper_c") + f" *{r['third']}*"


def _confirmed(r: dict[str, Any]) -> str:
    """The confirming half's estimates of a declared finding (else a dash)."""
    if r["declared"] == "unresolved" or r["win_conf_a"] is None:
        return "–"
    return f"{fmt(r['win_conf_a'], '+.1f')} / {fmt(r['win_conf_b'], '+.1f')}"


def _figure(table: pl.DataFrame, a: str, b: str | None, c: str | None = None) -> Figure:
    """One panel per player count: every board's effect under each policy."""
    counts = table["n_players"].unique().sort().to_list()
    rows = max(table.filter(pl.col("n_players") == n).height for n in counts)
    fig, axes = plots.panel_figure(len(counts), 4.6, 0.28 * rows + 1.8)
    policies = [(a, "win_pp_a", "win_lower_a", "win_upper_a")]
    if b is not None:
        policies.append((b, "win_pp_b", "win_lower_b", "win_upper_b"))
    if c is not None:
        policies.append((c, "win_pp_c", "win_lower_c", "win_upper_c"))
    for ax, n in zip(axes, counts, strict=True):
        part = table.filter(pl.col("n_players") == n)
        if b is not None:
            part = part.with_columns(robust=pl.col("label") == "robust")
        plots.plot_two_policies(
            ax,
            part,
            label="name",
            policies=policies,
            xlabel="win rate - 1/n (percentage points)",
            bold="robust" if b is not None else None,
        )
        ax.set_title(f"{n} players")
    fig.suptitle("How far from fair: each corporation and planet")
    return fig


def _caption(a: str, b: str | None, c: str | None = None) -> str:
    marks = [f"{a} (filled circles)", f"{b} (hollow squares)"]
    marks = [*marks, f"{c} (hollow triangles, the third opinion)"] if c else marks
    who = a if b is None else ", ".join(marks[:-1]) + " and " + marks[-1]
    return (
        f"Win rate minus 1/n in percentage points under {who}, 95% cluster-robust "
        f"intervals over setups, sorted by the effect under {a}; one panel per "
        "player count" + ("; robust findings in bold." if b else ".")
    )


def _headlines(page: Page, table: pl.DataFrame, a: str, b: str) -> None:
    """Replicated findings as findings, at their confirming half's size."""
    for (n,), part in table.partition_by(
        "n_players", as_dict=True, maintain_order=True
    ).items():
        robust = part.filter(pl.col("label") == "robust")
        items = [
            f"{r['name']} {fmt(r['win_conf_a'], '+.1f')} pp ({a}) / "
            f"{fmt(r['win_conf_b'], '+.1f')} pp ({b})"
            + (", sizes differ" if r["size_differs"] else "")
            for r in robust.iter_rows(named=True)
        ]
        dependent = part.filter(pl.col("label") == "bot-dependent")["name"].to_list()
        lost = part.filter(pl.col("label") == "not replicated")["name"].to_list()
        unresolved = int((part["label"] == "unresolved").sum())
        text = (
            f"**Robust at {n} players** (declared on half of the setups under {a} "
            f"and {b}, confirmed on the other half; win rate - 1/n on the confirming "
            "half): "
            + ("; ".join(items) if items else "none")
            + f". Not findings: {len(dependent)} bot-dependent"
            + (f" ({', '.join(dependent)})" if dependent else "")
            + f", {len(lost)} not replicated"
            + (f" ({', '.join(lost)})" if lost else "")
            + f", {unresolved} unresolved of {part.height}."
        )
        page.headlines.append(text)
    _replication(page, table, a, b)


def _third_headlines(
    page: Page, table: pl.DataFrame, games_c: pl.DataFrame, c: str
) -> None:
    """Per player count: how the third policy reads the robust findings."""
    setups = dict(games_c.group_by("n_players").agg(pl.col(CLUSTER).n_unique()).rows())
    for (n,), part in table.partition_by(
        "n_players", as_dict=True, maintain_order=True
    ).items():
        if n not in setups:
            continue
        robust = part.filter(pl.col("label") == "robust")
        counts = robust["third"].value_counts()
        count = dict(zip(counts["third"].cast(pl.String), counts["count"], strict=True))
        readings = ", ".join(f"{name} {count.get(name, 0)}" for name in THIRD_READINGS)
        against = [
            f"{r['name']} {fmt(r['win_pp_c'], '+.1f')} pp"
            for r in robust.filter(
                pl.col("third").cast(pl.String).is_in(["opposite sign", "opposes"])
            ).iter_rows(named=True)
        ]
        head = (
            f"**Third opinion at {n} players** ({c}, another family of play, on "
            f"{setups[n]:,} of the same setups; it does not change the labels): "
        )
        page.headlines.append(
            head
            + (
                f"of the {robust.height} robust findings, {readings}"
                + (f"; against the finding: {'; '.join(against)}" if against else "")
                if robust.height
                else "no robust finding at this count to read"
            )
            + "."
        )


def _replication(page: Page, table: pl.DataFrame, a: str, b: str) -> None:
    """How many declared findings the other half of the setups confirmed."""
    if table["win_conf_a"].is_null().all():
        page.headlines.append(
            f"**Replication ({a}, {b}):** too few setups to split in two halves, "
            "so no finding was confirmed on setups that did not declare it."
        )
        return
    declared = table.filter(pl.col("declared") != "unresolved")
    kept = declared.filter(pl.col("label") == pl.col("declared"))
    robust = declared.filter(pl.col("declared") == "robust")
    robust_kept = int((robust["label"] == "robust").sum())
    page.headlines.append(
        f"**Replication ({a}, {b}; win rates):** {declared.height} findings were "
        f"declared on one half of the setups and {kept.height} confirmed on the "
        f"other ({robust.height} declared robust, {robust_kept} confirmed)."
    )


def _agreement(page: Page, homo: pl.DataFrame, a: str, b: str) -> str:
    """Spearman and Kendall between the two policies' win rates, with CIs."""
    bot = pl.col("bot").cast(pl.String)
    games_a, games_b = homo.filter(bot == a), homo.filter(bot == b)
    frames = []
    for kind in KINDS:
        agreement = analysis.rank_agreement(
            games_a, games_b, by=(kind,), cluster=CLUSTER, n_boot=400
        )
        frames.append(agreement.with_columns(kind=pl.lit(kind)))
    table = pl.concat(frames).select(
        "n_players", "kind", pl.exclude("n_players", "kind")
    )
    table = table.sort("n_players", "kind")
    page.table("rank_agreement", table)
    rows = [
        [
            str(r["n_players"]),
            str(r["kind"]),
            str(r["labels"]),
            f"{r['shared_clusters']:,} of {r['clusters']:,}",
            _pp(r, "spearman", "spearman_lower", "spearman_upper", ".2f"),
            _pp(r, "kendall", "kendall_lower", "kendall_upper", ".2f"),
        ]
        for r in table.iter_rows(named=True)
    ]
    low = table.filter(pl.col("spearman_lower") < 0.5)
    page.headlines.append(
        f"**Rank agreement ({a} vs {b}, win rates):** Spearman "
        + ", ".join(
            f"{r['n_players']}p {r['kind']}s {fmt(r['spearman'], '.2f')} "
            f"[{fmt(r['spearman_lower'], '.2f')}, {fmt(r['spearman_upper'], '.2f')}]"
            for r in table.iter_rows(named=True)
        )
        + (
            f"; {low.height} of {table.height} rankings could agree less than 0.5"
            " (lower limit), so their order is not settled."
            if low.height
            else "."
        )
    )
    return (
        f"Do {a} and {b} rank the boards alike? Spearman's rho and Kendall's "
        "tau-b between the two policies' win rates, with 95% cluster-bootstrap "
        "intervals (the same resampled setups for both policies; 400 resamples):"
        "\n\n"
        + md_table(
            rows,
            [
                "players",
                "kind",
                "labels",
                "setups shared",
                "Spearman [95% CI]",
                "Kendall [95% CI]",
            ],
        )
    )
