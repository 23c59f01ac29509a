"""Two studies' verdicts on the rows they share (pu_sim.analysis.agreement)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pu_sim.analysis.agreement import compare_verdicts
from pu_sim.report.page import Page
from pu_sim.report.sections.agreement import agreement_section, design_facts
from pu_sim.simulation.manifest import write_report_manifest

ROOT = Path(__file__).resolve().parents[1]


def table(rows: list[tuple[str, str, float, float]]) -> pl.DataFrame:
    """A one-look table: (name, label, estimate, half-width) under both policies."""
    return pl.DataFrame(
        [
            {"n_players": 3, "kind": "corporation", "name": name, "label": label,
             "win_pp_a": est, "win_lower_a": est - hw, "win_upper_a": est + hw,
             "win_pp_b": est, "win_lower_b": est - hw, "win_upper_b": est + hw}
            for name, label, est, hw in rows
        ]
    )  # fmt: skip


def test_each_shared_row_is_sorted_into_agreement_resolution_or_contradiction():
    ours = table([
        ("same", "robust", 5.0, 2.0),
        ("resolved", "robust", 4.0, 2.0),
        ("opposite", "robust", 4.0, 2.0),
        ("far apart", "unresolved", 9.0, 1.0),
        ("only here", "robust", 3.0, 1.0),
    ])  # fmt: skip
    theirs = table([
        ("same", "robust", 4.0, 2.0),
        ("resolved", "unresolved", 2.0, 3.0),
        ("opposite", "bot-dependent", -4.0, 2.0),
        ("far apart", "robust", -9.0, 1.0),
    ])  # fmt: skip
    out = compare_verdicts(ours, theirs)
    got = dict(zip(out["name"], out["agreement"].cast(pl.String), strict=True))
    assert got == {
        "same": "same label", "resolved": "resolution", "opposite": "contradiction",
        "far apart": "contradiction",
    }  # fmt: skip
    assert (out["p_a"] <= 1.0).all()


def test_a_study_compared_with_itself_agrees_on_every_row():
    ours = table([(f"c{i}", "robust" if i % 2 else "unresolved", i - 3.0, 2.0)
                  for i in range(7)])  # fmt: skip
    out = compare_verdicts(ours, ours)
    assert out.height == 7 and (out["agreement"] == "same label").all()


def test_rows_come_in_our_order_and_no_shared_row_is_an_empty_table():
    ours = table([(f"c{i}", "robust", 4.0, 1.0) for i in (5, 2, 8, 0, 7, 1)])
    theirs = table([(f"c{i}", "robust", 4.0, 1.0) for i in range(9)])
    assert compare_verdicts(ours, theirs)["name"].to_list() == ours["name"].to_list()
    none = compare_verdicts(ours, table([("elsewhere", "robust", 1.0, 1.0)]))
    assert none.height == 0
    assert none.columns == ["n_players", "kind", "name", "label", "label_other",
                            "p_a", "p_b", "agreement"]  # fmt: skip


def other_report(folder: Path, verdicts: pl.DataFrame) -> Path:
    (folder / "tables").mkdir(parents=True)
    verdicts.write_csv(folder / "tables" / "verdicts.csv")
    write_report_manifest(
        folder, study="other_study", title="The other study",
        results={"design": design_facts(["a", "b"], {3: 9000})},
    )  # fmt: skip
    return folder


def test_the_section_names_both_designs_and_counts_the_agreement(tmp_path):
    ours = table([("x", "robust", 5.0, 2.0), ("y", "unresolved", 1.0, 2.0)])
    theirs = table([("x", "robust", 5.5, 1.0), ("y", "robust", 2.0, 0.9)])
    other = other_report(tmp_path / "other", theirs)
    page = Page(tmp_path / "report")
    mine = design_facts(["a", "b"], {3: 3000})
    (result,) = agreement_section(page, ours, [other], mine)
    (headline,) = page.headlines
    assert headline == (
        "**Agreement with The other study:** of the 2 rows both one-look tables "
        "hold, 1 get the same label, 1 are resolved by one study only (their "
        "estimates within chance of each other) and 0 contradict."
    )
    (section,) = page.sections
    assert "this study a and b, 3,000 games per player count" in section
    assert "that one a and b, 9,000 games per player count; the same bots" in section
    assert (tmp_path / "report" / "tables" / "agreement_other_study.csv").is_file()
    assert result["agreement"].cast(pl.String).to_list() == ["same label", "resolution"]


def test_a_missing_report_is_said_not_skipped(tmp_path):
    page = Page(tmp_path / "report")
    tables = agreement_section(
        page, table([("x", "robust", 5.0, 2.0)]), [tmp_path / "gone"],
        design_facts(["a"], {3: 10}),
    )  # fmt: skip
    assert tables == []
    assert (
        "not checked" in page.opening[0] and str(tmp_path / "gone") in page.opening[0]
    )


COMMITTED = {
    "main": ROOT / "reports" / "main",
    "balance": ROOT / "reports" / "corp_planet_balance",
}


def committed(study: str) -> Path:
    folders = sorted(p.parent for p in COMMITTED[study].glob("*/manifest.json"))
    if len(folders) != 1:
        pytest.fail(f"expected one committed {study} report, found {folders}")
    return folders[0]


def test_the_committed_main_and_balance_studies_do_not_contradict():
    """The check the two studies owe each other: no shared row contradicts,
    and each report names the other's design (its agreement section)."""
    main, balance = committed("main"), committed("balance")
    out = compare_verdicts(
        pl.read_csv(main / "tables" / "verdicts.csv"),
        pl.read_csv(balance / "tables" / "verdicts.csv"),
    )
    assert out.height >= 100  # every corporation and planet at 2-6 players
    contradictions = out.filter(pl.col("agreement") == "contradiction")
    assert contradictions.height == 0, contradictions
    for mine, theirs in ((main, balance), (balance, main)):
        readme = (mine / "README.md").read_text()
        assert "## Agreement with other studies" in readme
        assert f"(`{theirs.relative_to(ROOT)}`)" in readme
