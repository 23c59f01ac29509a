"""No text of a report figure is cut off: every drawn label lies inside its canvas.

The figures are the ones the report sections draw, on synthetic frames: a
study of 3- and 4-player and solo runs, the paired solo calibration and the
feel section.  Each figure is drawn and every visible text (titles, axis
labels, tick labels in view, legends, colour bars, annotations) is measured
against the figure's canvas.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from synthetic_games import multiplayer_frame, solo_frame, write_run
from test_feel import section_frames
from test_solo_paired_report import paired_runs

from pu_sim.report import plots, reporting
from pu_sim.report.page import Page
from pu_sim.report.sections import skill, solo_paired
from pu_sim.report.sections.feel import feel_section

SLACK = 1.0  # pixels: rounding of a text's extent


def _out_of_view(fig: Figure) -> set[int]:
    """The tick labels matplotlib does not draw (their tick is outside the view)."""
    hidden: set[int] = set()
    for ax in fig.axes:
        axes: list[Axis] = [ax.xaxis, ax.yaxis]
        for axis in axes:
            lo, hi = sorted(axis.get_view_interval())
            pad = (hi - lo) * 1e-9 + 1e-12
            for tick in [*axis.get_major_ticks(), *axis.get_minor_ticks()]:
                if not lo - pad <= tick.get_loc() <= hi + pad:
                    hidden.update({id(tick.label1), id(tick.label2)})
    return hidden


def clipped(fig: Figure) -> list[str]:
    """Each visible text reaching outside the figure's canvas, with where."""
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    canvas = fig.bbox
    hidden = _out_of_view(fig)
    found = []
    for text in fig.findobj(Text):
        if id(text) in hidden or not text.get_visible() or not text.get_text().strip():
            continue
        box = text.get_window_extent(renderer)
        if (
            box.x0 < canvas.x0 - SLACK
            or box.y0 < canvas.y0 - SLACK
            or box.x1 > canvas.x1 + SLACK
            or box.y1 > canvas.y1 + SLACK
        ):
            found.append(
                f"{text.get_text()!r} at x {box.x0:.0f}..{box.x1:.0f}, "
                f"y {box.y0:.0f}..{box.y1:.0f} outside {canvas.width:.0f} x "
                f"{canvas.height:.0f}"
            )
    return found


@pytest.fixture(scope="module")
def figures(tmp_path_factory) -> dict[str, Figure]:
    """Every figure the sections draw on the synthetic frames, by file name."""
    drawn: dict[str, Figure] = {}
    save = plots.save

    def keep(fig, path, **kwargs):
        drawn[path.name] = fig
        return save(fig, path, **kwargs)

    mp = pytest.MonkeyPatch()
    mp.setattr(plots, "save", keep)
    with plots.report_style():  # as the report builder draws every section
        try:
            base = tmp_path_factory.mktemp("figures")
            runs = [
                write_run(base / "runs" / "p4", multiplayer_frame(
                    2000, 4, corp_effect={"Gamma Corp": 6.0}, seed=2)),
                write_run(base / "runs" / "p3", multiplayer_frame(1500, 3, seed=1),
                          group_size=3),
                write_run(base / "runs" / "solo",
                          solo_frame(3000, lambda g, o, r: 50 + g - r, seed=3)),
            ]  # fmt: skip
            reporting.write_study_report(runs, base / "study")
            solo_paired.paired_calibration_section(
                Page(base / "paired"), paired_runs(1.3, {"strong": 60.0, "weak": 45.0})
            )
            games, rounds = section_frames("Gaia")
            feel_section(Page(base / "feel"), games, "some_bot", rounds)
            gains = pl.DataFrame(
                {
                    "name": ["Universal Coalition", "Cosmos Inc.", "Gaia", "K-273"],
                    "kind": ["corporation", "corporation", "planet", "planet"],
                    "gain": [14.0, 9.5, 12.0, 7.0],
                }
            ).with_columns(lower=pl.col("gain") - 1.5, upper=pl.col("gain") + 1.5)
            Page(base / "skill").figure(
                "skill_solo_gains",
                skill._gain_figure(gains, "greedy", "greedy_tuned"),
                "",
            )
        finally:
            mp.undo()
    return drawn


EXPECTED = ("corporation_planet_cells.png", "solo_success_spread_strong.png",
            "feel_length.png", "skill_solo_gains.png")  # fmt: skip


def test_the_figures_of_the_issue_are_drawn(figures):
    assert set(EXPECTED) <= set(figures), sorted(figures)


def test_no_text_is_cut_off_in_any_figure(figures):
    faults = {name: found for name, fig in figures.items() if (found := clipped(fig))}
    assert not faults, "\n".join(
        f"{name}: {'; '.join(found)}" for name, found in sorted(faults.items())
    )


def test_the_cells_share_one_colour_scale_sorted_by_effect(figures):
    fig = figures["corporation_planet_cells.png"]
    images = [im for ax in fig.axes for im in ax.get_images()]
    assert len(images) == 2  # one panel per player count
    assert len({im.get_clim() for im in images}) == 1
    assert len(fig.axes) == 3  # two panels, one colour bar
    # rows and columns in the same order in every panel: by mean effect
    grids = np.stack([np.asarray(im.get_array(), dtype=float) for im in images])
    rows = np.nanmean(grids, axis=(0, 2))
    cols = np.nanmean(grids, axis=(0, 1))
    assert list(rows) == sorted(rows, reverse=True)
    assert list(cols) == sorted(cols, reverse=True)
    names = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert names[0] == "Gamma Corp"  # the strong one on top


def test_every_line_of_the_gain_figure_is_named(figures):
    ax = figures["skill_solo_gains.png"].axes[0]
    names = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(n.startswith("mean gain") for n in names)


def test_the_detector_finds_a_clipped_label():
    fig, ax = plots.new_figure(3, 2)
    fig.set_layout_engine("none")
    ax.set_ylabel("a very long label " * 4)
    ax.set_yticks([0, 1], ["a tick label far too long to fit", "b"])
    assert clipped(fig)


def test_every_report_figure_is_drawn_in_the_one_style(figures):
    """The report style's sizes reach each figure (a section drawing outside
    it, or a style edited away, would show other fonts)."""
    for name, fig in figures.items():
        for ax in fig.axes:
            if ax.get_xlabel():
                assert ax.xaxis.label.get_fontsize() == plots.STYLE["axes.labelsize"], (
                    name
                )
            if ax.get_legend() is not None:
                assert not ax.get_legend().get_frame_on(), name


@pytest.mark.parametrize("name", ["corporation_win_rate.png", "planet_win_rate.png"])
def test_every_panel_of_a_win_rate_figure_reads_one_x_scale(figures, name):
    axes = figures[name].axes
    assert len(axes) == 2  # one panel per player count
    assert len({ax.get_xlim() for ax in axes}) == 1
