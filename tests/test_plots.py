"""Plot helpers draw on a given Axes, return their artists and render to files."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import polars as pl
import pytest
from matplotlib.artist import Artist
from synthetic_games import multiplayer_frame, solo_frame

from pu_sim import analysis
from pu_sim.analysis import calibration
from pu_sim.report import plots


def render(fig, tmp_path, name):
    path = plots.save(fig, tmp_path / f"{name}.png")
    assert path.is_file()
    assert path.stat().st_size > 5_000  # a real picture, not an empty canvas
    return path


def check_artists(artists):
    assert artists
    assert all(isinstance(a, Artist) for a in artists)


def test_plotting_never_imports_pyplot_or_picks_a_backend(tmp_path):
    # The helpers use Figure directly: no backend selection, no global state,
    # nothing that could open a window.
    code = (
        "import sys, matplotlib\n"
        "from pu_sim.report import plots, reporting\n"
        "fig, ax = plots.new_figure()\n"
        "plots.plot_ecdf(ax, {'a': [1, 2, 3]})\n"
        f"plots.save(fig, __import__('pathlib').Path({str(tmp_path)!r}) / 'x.png')\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_forest(tmp_path):
    table = analysis.win_rates(multiplayer_frame(400, 2, seed=1))
    fig, ax = plots.new_figure()
    artists = plots.plot_forest(
        ax, table, label=["n_players", "corporation"], reference="expected",
        significant="significant",
    )  # fmt: skip
    check_artists(artists)
    assert len(ax.get_yticklabels()) == table.height
    render(fig, tmp_path, "forest")


def test_forest_with_a_numeric_reference(tmp_path):
    table = pl.DataFrame({"x": ["a", "b"], "e": [0.1, -0.2], "lo": [0.0, -0.3],
                          "hi": [0.2, -0.1]})  # fmt: skip
    fig, ax = plots.new_figure()
    check_artists(plots.plot_forest(ax, table, label="x", estimate="e", lower="lo",
                                    upper="hi", reference=0.0))  # fmt: skip
    render(fig, tmp_path, "forest0")


def test_heatmap(tmp_path):
    df = multiplayer_frame(600, 2, corp_effect={"Alpha Corp": 3}, seed=2)
    table = analysis.interaction_table(df)
    fig, ax = plots.new_figure()
    artists = plots.plot_heatmap(ax, table, row="corporation", col="planet")
    check_artists(artists)
    n_cells = table.height
    assert len(artists) == 1 + n_cells  # the image and one label per cell
    render(fig, tmp_path, "heatmap")


def test_score_breakdown(tmp_path):
    table = analysis.score_breakdown(multiplayer_frame(200, 3, seed=3))
    fig, ax = plots.new_figure()
    artists = plots.plot_score_breakdown(ax, table, label="corporation")
    check_artists(artists)
    assert len(ax.get_legend().get_texts()) == 6
    render(fig, tmp_path, "breakdown")


def test_ecdf_with_targets(tmp_path):
    rng = np.random.default_rng(0)
    samples = {"7/7/6": rng.normal(40, 6, 500), "3/3/14": rng.normal(38, 6, 500)}
    fig, ax = plots.new_figure()
    artists = plots.plot_ecdf(ax, samples, targets={"7/7/6": 59, "3/3/14": 49})
    check_artists(artists)
    assert len(artists) == 4  # two curves, two target lines
    render(fig, tmp_path, "ecdf")


@pytest.fixture(scope="module")
def solo():
    return solo_frame(4000, lambda g, o, r: 30 + 1.0 * g - 0.2 * r, seed=4)


def test_adjustments(tmp_path, solo):
    table = calibration.recalibrate(solo, success=0.5)
    fig, ax = plots.new_figure()
    artists = plots.plot_adjustments(ax, table)
    check_artists(artists)
    render(fig, tmp_path, "adjustments")


def test_deck_means(tmp_path, solo):
    summary = calibration.deck_summary(solo)
    fig, ax = plots.new_figure()
    artists = plots.plot_deck_means(ax, summary)
    check_artists(artists)
    render(fig, tmp_path, "deck_means")


def test_shades_are_ordered_colours():
    colours = plots.shades("Reds", 4)
    assert len(colours) == 4 and len(set(colours)) == 4
    assert all(c.startswith("#") for c in colours)


@pytest.mark.parametrize(("n", "grid"), [(1, (1, 1)), (2, (1, 2)), (3, (1, 3)),
                                         (5, (2, 3)), (6, (2, 3))])  # fmt: skip
def test_panels_wrap_three_a_row_on_one_x_scale(n, grid):
    fig, axes = plots.panel_figure(n, 4.0, 3.0)
    assert len(axes) == n
    assert {ax.get_subplotspec().get_geometry()[:2] for ax in axes} == {grid}
    shared = axes[0].get_shared_x_axes()
    assert all(shared.joined(axes[0], ax) for ax in axes[1:])
    assert tuple(fig.get_size_inches()) == (4.0 * grid[1] + 0.6, 3.0 * grid[0])
    _, apart = plots.panel_figure(n, 4.0, 3.0, sharex=False)
    assert n == 1 or not apart[0].get_shared_x_axes().joined(apart[0], apart[-1])
