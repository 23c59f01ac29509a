"""docs/rules-decisions.md and RuleOptions stay in step."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

from pu_sim.rules import RuleOptions

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules-decisions.md"
FIELDS = {f.name for f in dataclasses.fields(RuleOptions)}


def section(title: str, end: str | None = None) -> str:
    text = DOC.read_text()
    start = text.index(title)
    return text[start : text.index(end, start) if end else None]


def index_rows() -> dict[str, str]:
    """Option name -> the index's "where the engine applies it" column."""
    index = section("## 14. Option index")
    return dict(re.findall(r"^\| `(\w+)` \|.*\| ((?:`[\w/.]+\.pxi`(?:, )?)+) \|$",
                           index, re.M))  # fmt: skip


def test_every_rule_option_is_in_the_index_with_where_the_engine_applies_it():
    assert set(index_rows()) == FIELDS


def test_the_index_names_the_files_that_apply_each_option():
    """A newcomer finds an option's rule from its name: the named core rooms
    exist, and an option that sets a flag (OPT_<NAME>...) is read in each."""
    package = DOC.parents[1] / "pu_sim"
    for name, column in index_rows().items():
        files = re.findall(r"`([\w/.]+)`", column)
        flag = re.compile(rf"\bOPT_{name.upper()}(_\w+)?\b")
        users = {
            str(f.relative_to(package))
            for f in (package / "core").rglob("*.pxi")
            if f.name != "defs.pxi" and flag.search(f.read_text())
        }
        for file in files:
            assert (package / file).is_file(), (name, file)
        if users:
            assert set(files) == users, (name, sorted(users))


def test_the_index_lists_each_option_s_values_as_rule_options_does():
    """The index's "Type and values" column agrees with RuleOptions.choices()."""
    index = section("## 14. Option index")
    rows = dict(re.findall(r"^\| `(\w+)` \| (.*?) \| `", index, re.M))
    for name, choices in RuleOptions.choices().items():
        column = rows[name]
        if choices.form:
            assert column.startswith("`tuple["), name
        elif set(choices.values) <= {False, True, None}:
            assert column.startswith("`bool"), name
        elif None in choices.values:
            numbers = [v for v in choices.values if v is not None]
            assert column.startswith("`int \\| None` (0–5"), name
            assert numbers == list(range(6)), name
        else:
            listed = re.findall(r"`([^`]+)`", column)
            assert tuple(map(ast.literal_eval, listed)) == choices.values, name


def test_the_bga_profile_sets_what_the_document_says():
    profile = section(
        "**Option values of the profile**", "**Each documented difference"
    )
    block = profile.split("```")[1]
    bga, default = RuleOptions.bga(), RuleOptions()
    checked = set()
    for line in block.strip().splitlines():
        setting, _, comment = line.partition("#")
        name, value = (part.strip() for part in setting.split("=", 1))
        if name not in FIELDS:
            continue  # an option of a module still to come
        checked.add(name)
        if comment.strip().startswith("default"):
            assert getattr(bga, name) == getattr(default, name), name
        else:
            assert getattr(bga, name) == ast.literal_eval(value), name
    # every option whose BGA value differs from the default is in the block
    differing = {n for n in FIELDS if getattr(bga, n) != getattr(default, n)}
    assert differing <= checked


def test_every_decision_cites_a_reference_section():
    tables = section("## 1. Setup and station", "## 13. The `bga` profile")
    rows = [ln for ln in tables.splitlines() if ln.startswith("| `")]
    assert len(rows) >= 100
    for row in rows:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]
        assert len(cells) == 5, row
        reference = cells[3]
        assert re.search(r"rules|planets|corporations|cards|json", reference), row
