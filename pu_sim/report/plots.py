"""Matplotlib helpers that draw analysis tables on an Axes the caller owns.

Each helper has the shape ``plot_x(ax, data, ...) -> list[Artist]`` that
matplotlib's guide recommends for reusable plotting code: it draws on the
given Axes, labels it and returns the artists it made, so callers can restyle
or test them.  Nothing here selects a backend, opens a window or calls
``plt.show()``; :func:`new_figure` builds a pyplot-free ``Figure`` (the Agg
canvas, safe in threads and on headless machines) and :func:`save` writes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib as mpl
import numpy as np
import polars as pl
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

STYLE: Mapping[str, Any] = {
    "font.size": 9.0,
    "axes.titlesize": 10.0,
    "axes.labelsize": 9.0,
    "xtick.labelsize": 8.0,
    "ytick.labelsize": 8.0,
    "legend.fontsize": 8.0,
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.axisbelow": True,
    "grid.alpha": 0.3,
    "savefig.dpi": 110,
}
"""The one figure style of every report: sizes a page reads at 100%, no box."""


@contextmanager
def report_style() -> Iterator[None]:
    """Draw in :data:`STYLE`; the user's own settings come back after.

    Fonts are read when text is made, so this wraps the drawing, not the saving.
    """
    with mpl.rc_context(dict(STYLE)):  # type: ignore[arg-type]
        yield


COLOUR_OF = {"green": "tab:green", "orange": "tab:orange", "red": "tab:red"}
"""Event colours drawn in their own colour."""


def new_figure(width: float = 6.4, height: float = 4.0) -> tuple[Figure, Axes]:
    """A constrained-layout figure with one Axes, independent of pyplot."""
    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


PANELS_ACROSS = 3
"""Panels a row in a figure of one panel per player count: five counts wrap
into two rows, so a page does not shrink them into one strip of tiny labels."""


def panel_figure(
    n: int, panel_width: float, panel_height: float, *, extra_width: float = 0.6,
    min_width: float = 0.0, sharex: bool = True,
) -> tuple[Figure, list[Axes]]:  # fmt: skip
    """A constrained-layout figure of n panels, PANELS_ACROSS at most a row.

    The panels share one x scale unless ``sharex`` is False (one scale per
    figure); each panel is ``panel_width`` by ``panel_height`` inches.
    """
    across = max(1, min(n, PANELS_ACROSS))
    down = -(-n // across)
    fig = Figure(
        figsize=(max(panel_width * across + extra_width, min_width),
                 panel_height * down),
        layout="constrained",
    )  # fmt: skip
    axes: list[Axes] = []
    for i in range(n):
        shared = axes[0] if sharex and axes else None
        axes.append(fig.add_subplot(down, across, i + 1, sharex=shared))
    return fig, axes


def save(fig: Figure, path: Path, *, dpi: int = 110) -> Path:
    """Write a figure (format from the suffix) and return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi)
    return path


def _labels(table: pl.DataFrame, label: str | Sequence[str]) -> list[str]:
    cols = [label] if isinstance(label, str) else list(label)
    return [" / ".join(str(v) for v in row) for row in table.select(cols).iter_rows()]


def plot_forest(
    ax: Axes,
    table: pl.DataFrame,
    *,
    label: str | Sequence[str],
    estimate: str = "win_rate",
    lower: str = "lower",
    upper: str = "upper",
    reference: float | str | None = None,
    significant: str | None = None,
    xlabel: str | None = None,
) -> list[Artist]:
    """Forest plot: one row per label, point estimate and interval.

    ``reference`` draws the null value (a number, or a column holding one per
    row, e.g. ``"expected"`` = 1/n); rows flagged in the ``significant``
    column are drawn filled, the others hollow, so a reader sees at once which
    differences survive the multiple-comparison correction.
    """
    names = _labels(table, label)
    y = np.arange(len(names))[::-1]
    est = table[estimate].to_numpy().astype(float)
    lo = table[lower].to_numpy().astype(float)
    hi = table[upper].to_numpy().astype(float)
    # A percentile-bootstrap interval need not contain its point estimate.
    err = np.clip(np.nan_to_num(np.vstack([est - lo, hi - est])), 0.0, None)
    artists: list[Artist] = []
    bars = ax.errorbar(est, y, xerr=err, fmt="none", ecolor="0.3")
    artists.extend(bars.lines[2])
    sig = (
        table[significant].to_numpy().astype(bool)
        if significant is not None
        else np.ones(len(names), dtype=bool)
    )
    artists.append(ax.scatter(est[sig], y[sig], color="tab:blue", zorder=3))
    if (~sig).any():
        artists.append(
            ax.scatter(
                est[~sig], y[~sig], facecolor="white", edgecolor="tab:blue", zorder=3
            )
        )
    if isinstance(reference, str):
        ref = table[reference].to_numpy().astype(float)
        for yi, r in zip(y, ref, strict=True):
            artists.extend(ax.plot([r, r], [yi - 0.4, yi + 0.4], color="tab:red", lw=1))
    elif reference is not None:
        artists.append(ax.axvline(reference, color="tab:red", lw=1, ls="--"))
    ax.set_yticks(y, names)
    ax.set_xlabel(xlabel or estimate)
    ax.grid(axis="x", alpha=0.3)
    return artists


def plot_heatmap(
    ax: Axes,
    table: pl.DataFrame,
    *,
    row: str,
    col: str,
    value: str = "delta",
    annotate: bool = True,
    center: float | None = 0.0,
    cmap: str = "RdBu_r",
    fmt: str = "{:+.1f}",
    significant: str | None = None,
    colorbar_label: str | None = None,
    span: float | None = None,
    rows: Sequence[Any] | None = None,
    cols: Sequence[Any] | None = None,
    colorbar: bool = True,
) -> list[Artist]:
    """Heatmap of ``value`` over ``row`` x ``col`` (e.g. corporation x planet).

    With ``center`` the colour scale is symmetric around it, so positive and
    negative interaction deltas read as equally strong at equal size; ``span``
    fixes its half-width (panels of one figure share one scale), else the
    largest distance from ``center`` sets it.  ``rows`` and ``cols`` give the
    order (default: sorted labels).  Cells flagged in the boolean column
    ``significant`` are framed and their numbers set in bold (e.g.
    significant after a multiple-comparison correction).  ``colorbar=False``
    leaves the colour bar to the caller (one for several panels).
    """
    rows = list(rows) if rows is not None else (
        table[row].unique(maintain_order=True).sort().to_list()
    )  # fmt: skip
    cols = list(cols) if cols is not None else (
        table[col].unique(maintain_order=True).sort().to_list()
    )  # fmt: skip
    grid = np.full((len(rows), len(cols)), np.nan)
    ri = {v: i for i, v in enumerate(rows)}
    ci = {v: j for j, v in enumerate(cols)}
    marked = np.zeros(grid.shape, dtype=bool)
    for r, c, v in table.select(row, col, value).iter_rows():
        if r in ri and c in ci:
            grid[ri[r], ci[c]] = np.nan if v is None else v
    if significant is not None:
        for r, c, flag in table.select(row, col, significant).iter_rows():
            if r in ri and c in ci:
                marked[ri[r], ci[c]] = bool(flag)
    kwargs: dict[str, Any] = {"cmap": cmap, "aspect": "auto"}
    if center is not None and (span is not None or np.isfinite(grid).any()):
        if span is None:
            span = float(np.nanmax(np.abs(grid - center))) or 1.0
        kwargs.update(vmin=center - span, vmax=center + span)
    image = ax.imshow(grid, **kwargs)
    artists: list[Artist] = [image]
    ax.set_xticks(range(len(cols)), [str(c) for c in cols], rotation=45, ha="right")
    ax.set_yticks(range(len(rows)), [str(r) for r in rows])
    ax.set_xlabel(col)
    ax.set_ylabel(row)
    if annotate:
        for i in range(len(rows)):
            for j in range(len(cols)):
                if np.isfinite(grid[i, j]):
                    artists.append(
                        ax.text(j, i, fmt.format(grid[i, j]), ha="center",
                                va="center", fontsize=8,
                                fontweight="bold" if marked[i, j] else "normal")
                    )  # fmt: skip
    for i, j in zip(*np.nonzero(marked), strict=True):
        artists.append(
            ax.add_patch(
                Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, lw=1.6, ec="black")
            )
        )
    if colorbar:
        ax.figure.colorbar(image, ax=ax, label=colorbar_label or value)
    return artists


def plot_two_policies(
    ax: Axes,
    table: pl.DataFrame,
    *,
    label: str,
    policies: Sequence[tuple[str, str, str, str]],
    xlabel: str,
    bold: str | None = None,
) -> list[Artist]:
    """Forest plot of one effect under several policies, one row per label.

    ``policies`` are ``(name, estimate, lower, upper)`` column sets, drawn
    side by side in each row (first filled circles, then hollow squares, ...)
    with a legend naming them; rows are in the table's order, top down.  Rows
    flagged in the boolean column ``bold`` get bold tick labels (e.g. robust
    findings).
    """
    names = table[label].cast(pl.String).to_list()
    y = np.arange(len(names))[::-1].astype(float)
    artists: list[Artist] = []
    styles = [("o", "tab:blue", "tab:blue"), ("s", "white", "tab:orange"),
              ("^", "white", "tab:green")]  # fmt: skip
    step = 0.25 if len(policies) > 1 else 0.0
    for k, (name, est_col, lo_col, hi_col) in enumerate(policies):
        est = table[est_col].to_numpy().astype(float)
        lo = table[lo_col].to_numpy().astype(float)
        hi = table[hi_col].to_numpy().astype(float)
        err = np.clip(np.nan_to_num(np.vstack([est - lo, hi - est])), 0.0, None)
        yk = y + step * ((len(policies) - 1) / 2 - k)  # centred on the row
        marker, face, edge = styles[k % len(styles)]
        bars = ax.errorbar(est, yk, xerr=err, fmt="none", ecolor=edge, lw=1)
        artists.extend(bars.lines[2])
        artists.append(
            ax.scatter(est, yk, marker=marker, facecolor=face, edgecolor=edge,
                       zorder=3, label=name)
        )  # fmt: skip
    artists.append(ax.axvline(0.0, color="tab:red", lw=1, ls="--"))
    ax.set_yticks(y, names)
    if bold is not None:
        strong = {n for n, flag in zip(names, table[bold].to_list(), strict=True)
                  if flag}  # fmt: skip
        for tick in ax.get_yticklabels():
            if tick.get_text() in strong:
                tick.set_fontweight("bold")
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="best", fontsize=7)
    return artists


def plot_score_breakdown(
    ax: Axes,
    breakdown: pl.DataFrame,
    *,
    label: str | Sequence[str],
    part: str = "part",
    value: str = "mean",
) -> list[Artist]:
    """Stacked horizontal bars: each label's mean score split by category."""
    cols = [label] if isinstance(label, str) else list(label)
    keys = breakdown.select(cols).unique(maintain_order=True)
    names = _labels(keys, cols)
    parts = breakdown[part].unique(maintain_order=True).to_list()
    y = np.arange(len(names))[::-1]
    left = np.zeros(len(names))
    artists: list[Artist] = []
    for p in parts:
        sub = keys.join(
            breakdown.filter(pl.col(part) == p), on=cols, how="left",
            maintain_order="left", nulls_equal=True,
        )  # fmt: skip
        width = sub[value].fill_null(0.0).to_numpy().astype(float)
        name = str(p).removeprefix("score_")
        bars = ax.barh(y, width, left=left, label=name)
        artists.extend(bars.patches)
        left += width
    ax.set_yticks(y, names)
    ax.set_xlabel("mean points")
    ax.legend(fontsize=8, ncols=3, loc="upper center", bbox_to_anchor=(0.5, -0.1))
    return artists


def plot_ecdf(
    ax: Axes,
    samples: Mapping[str, Sequence[float] | np.ndarray[Any, Any]],
    *,
    targets: Mapping[str, float] | None = None,
    colours: Mapping[str, str] | None = None,
    xlabel: str = "score",
) -> list[Artist]:
    """Empirical CDFs, one per sample, with each sample's target as a line.

    Where a curve crosses its target line reads directly as the failure rate:
    the share of games scoring below the target.
    """
    artists: list[Artist] = []
    for i, (name, values) in enumerate(samples.items()):
        colour = (colours or {}).get(name, f"C{i}")
        data = np.sort(np.asarray(values, dtype=float))
        if data.size == 0:
            continue
        y = np.arange(1, data.size + 1) / data.size
        artists.extend(ax.step(data, y, where="post", color=colour, label=name))
        if targets and name in targets:
            artists.append(ax.axvline(targets[name], color=colour, ls="--", lw=1))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games at or below")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    if artists:
        ax.legend(fontsize=8)
    return artists


def plot_adjustments(
    ax: Axes,
    table: pl.DataFrame,
    *,
    entry: str = "entry",
    band: str = "band",
    published: str = "published",
    estimate: str = "estimate",
    lower: str = "lower",
    upper: str = "upper",
    recalibrated: str | None = "recalibrated",
) -> list[Artist]:
    """Published vs fitted target adjustments per colour and count band.

    Published values are crosses joined by a dashed line; the fitted effects
    of the deck on the score are dots with their intervals; a gap between the
    two is where the table over- or under-corrects.
    """
    artists: list[Artist] = []
    rows = table.filter(pl.col(entry) != "base")
    bands = rows[band].unique(maintain_order=True).to_list()
    x = np.arange(len(bands))
    offsets = {"green": -0.15, "orange": 0.0, "red": 0.15}
    for colour in rows[entry].unique(maintain_order=True).to_list():
        sub = rows.filter(pl.col(entry) == colour)
        c = COLOUR_OF.get(colour)
        dx = x + offsets.get(colour, 0.0)
        artists.extend(
            ax.plot(dx, sub[published].to_numpy(), "x--", color=c, lw=1,
                    label=f"{colour}: published")
        )  # fmt: skip
        est = sub[estimate].to_numpy().astype(float)
        lo = sub[lower].to_numpy().astype(float)
        hi = sub[upper].to_numpy().astype(float)
        err = np.clip(np.nan_to_num(np.vstack([est - lo, hi - est])), 0.0, None)
        bars = ax.errorbar(
            dx, est, yerr=err, fmt="o", color=c, label=f"{colour}: fitted"
        )
        artists.extend(bars.lines[2])
        if recalibrated is not None and recalibrated in sub.columns:
            artists.append(
                ax.scatter(dx, sub[recalibrated].to_numpy(), marker="_", s=200,
                           color=c, zorder=4, label=f"{colour}: recalibrated")
            )  # fmt: skip
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_xticks(x, [str(b) for b in bands])
    ax.set_xlabel("cards of the colour in the 20-card deck")
    ax.set_ylabel("adjustment (points)")
    ax.legend(fontsize=7, ncols=3)
    ax.grid(alpha=0.3)
    return artists


def plot_deck_means(
    ax: Axes,
    summary: pl.DataFrame,
    *,
    target: str = "target",
    mean: str = "mean",
    colour_by: str = "deck_red",
) -> list[Artist]:
    """Mean score against the published target, one point per deck composition.

    A calibrated table puts every point on one line of slope 1 (the dashed
    line through the average): a point above it is a deck that is easier than
    its target says.
    """
    t = summary[target].to_numpy().astype(float)
    m = summary[mean].to_numpy().astype(float)
    n = summary["n"].to_numpy().astype(float) if "n" in summary.columns else None
    points = ax.scatter(
        t, m, c=summary[colour_by].to_numpy(), cmap="Reds", edgecolor="0.3",
        s=12 if n is None else 8 + 40 * n / n.max(),
    )  # fmt: skip
    artists: list[Artist] = [points]
    weights = n if n is not None else np.ones_like(t)
    ct, cm = np.average(t, weights=weights), np.average(m, weights=weights)
    span = np.array([t.min(), t.max()])
    artists.extend(ax.plot(span, cm + span - ct, "--", color="0.4", label="slope 1"))
    ax.figure.colorbar(points, ax=ax, label=colour_by)
    ax.set_xlabel("published target")
    ax.set_ylabel("mean score")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return artists


def shades(cmap: str, n: int) -> list[str]:
    """``n`` colours from light to dark along a named colormap (ordered series)."""
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    cm = colormaps[cmap]
    return [to_hex(cm(0.35 + 0.6 * j / max(n - 1, 1))) for j in range(n)]
