"""Markdown for reports: tables, numbers, intervals, words for ratios.

Numbers are formatted so that rounding never lies: a percentage never rounds
to "never" (0%) or "always" (100%), and p-values keep two significant digits
when small.
"""

from __future__ import annotations

import math
from typing import Any

import polars as pl

__all__ = ["ci", "fmt", "frame_table", "md_table", "pct", "ratio_words", "slug"]


def fmt(value: Any, spec: str) -> str:
    """One number as text; ``spec`` is a format spec, ``"%"`` or ``"p"``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if spec == "p":
        v = float(value)
        return "<1e-300" if v == 0 else (f"{v:.2g}" if v < 0.001 else f"{v:.3f}")
    if spec == "%":
        # Keep "never" and "always" honest: rounding must not reach 0 or 100.
        v = 100 * float(value)
        if 0 < v < 0.01:
            return "<0.01%"
        if 99.99 < v < 100:
            return ">99.99%"
        return f"{v:.2f}%" if (0 < v < 0.1 or 99.9 < v < 100) else f"{v:.1f}%"
    return format(value, spec)


def ci(r: dict[str, Any], est: str, lo: str, hi: str, spec: str) -> str:
    """``estimate [lower, upper]`` from a row dict."""
    return f"{fmt(r[est], spec)} [{fmt(r[lo], spec)}, {fmt(r[hi], spec)}]"


def md_table(rows: list[list[str]], header: list[str]) -> str:
    """Rows of cells under a header, as a Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def frame_table(frame: pl.DataFrame, floats: str = ".3f") -> str:
    """A whole frame as a Markdown table, floats in the ``floats`` format."""
    rows = [
        [format(v, floats) if isinstance(v, float) else str(v) for v in row]
        for row in frame.iter_rows()
    ]
    return md_table(rows, frame.columns)


def pct(x: float) -> str:
    """A share as a percentage (see :func:`fmt`)."""
    return fmt(x, "%")


def ratio_words(ratio: float) -> str:
    """What a paired/unpaired variance ratio means, in words."""
    if not math.isfinite(ratio):
        return "no variance ratio"
    if ratio >= 1.0:
        return f"pairing cut the variance {ratio:.2f}-fold"
    return f"variance ratio {ratio:.2f}: pairing did not help here"


def slug(text: str) -> str:
    """A label as a file-name part (e.g. ``greedy vs random``)."""
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in text)
