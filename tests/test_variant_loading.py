"""Variants: TOML changes to the published data, merged by name and checked.

What the loader must guarantee a designer: a change lands exactly where it is
addressed (nested keys merge, the rest of the data stays published), several
files apply in order, and a bad variant stops with one line naming the
variant file, the entry and the key before anything plays.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pu_sim.rules import DataError, RuleOptions, Variant, load_game_data

COSMOS_WATER_TOP = """
[variant]
name = "cosmos-water-12"
description = "Cosmos Inc.: the water track's top space scores 12"

[corporation.cosmos_inc.tracks]
water = { 15 = "medal:12" }
"""


def _corp(data, key):  # type: ignore[no-untyped-def]
    return next(c for c in data.corporations if c.key == key)


def test_identity_variant_gives_the_published_data() -> None:
    published = load_game_data()
    empty = Variant.from_text("[variant]\nname = 'nothing'\n", "nothing.toml")
    same = Variant.from_text(
        '[corporation.cosmos_inc.tracks]\nwater = { 15 = "medal:10" }\n', "same.toml"
    )
    assert empty.game_data() == published
    assert same.game_data() == published
    assert empty.digest != same.digest  # different texts, different variants


def test_nested_merge_changes_only_what_is_addressed() -> None:
    published = load_game_data()
    variant = Variant.from_text(
        COSMOS_WATER_TOP
        + '\n[corporation.cosmos_inc.tech.2]\ntext = "changed"\n'
        + "\n[planet.lacuna]\nrow_medals = { 0 = 9 }\n",
        "nested.toml",
    )
    data = variant.game_data()
    cosmos, cosmos0 = _corp(data, "cosmos_inc"), _corp(published, "cosmos_inc")
    water, water0 = cosmos.tracks["water"].spaces, cosmos0.tracks["water"].spaces
    assert water[15].medal == 12 and water0[15].medal == 10
    assert water[:15] == water0[:15]
    for track in ("civ", "biomass", "rover", "tech"):
        assert cosmos.tracks[track] == cosmos0.tracks[track]
    assert cosmos.techs[1].text == "changed"
    assert [t.text for i, t in enumerate(cosmos.techs) if i != 1] == [
        t.text for i, t in enumerate(cosmos0.techs) if i != 1
    ]
    lacuna = next(p for p in data.planets if p.key == "lacuna")
    lacuna0 = next(p for p in published.planets if p.key == "lacuna")
    assert lacuna.row_medals[0] == 9
    assert lacuna.row_medals[1:] == lacuna0.row_medals[1:]
    unchanged = [c for c in data.corporations if c.key != "cosmos_inc"]
    assert unchanged == [c for c in published.corporations if c.key != "cosmos_inc"]
    assert data.events == published.events


def test_files_apply_in_order_and_carry_options(tmp_path: Path) -> None:
    first = tmp_path / "first.toml"
    second = tmp_path / "second.toml"
    first.write_text(COSMOS_WATER_TOP)
    second.write_text(
        '[corporation.cosmos_inc.tracks]\nwater = { 15 = "medal:14" }\n'
        '[options]\nciv_pick_timing = "on_milestone"\n'
    )
    variant = Variant.read(first, second)
    water = _corp(variant.game_data(), "cosmos_inc").tracks["water"].spaces
    assert water[15].medal == 14
    assert variant.name == "cosmos-water-12+second"
    assert variant.options == {"civ_pick_timing": "on_milestone"}
    options = variant.apply_options(RuleOptions())
    assert options == dataclasses.replace(RuleOptions(), civ_pick_timing="on_milestone")


def test_solo_target_and_event_changes() -> None:
    published = load_game_data()
    variant = Variant.from_text(
        "[solo_target]\nbase = 65\n[event.65]\nimmediate = { 0 = { count = 2 } }\n",
        "solo.toml",
    )
    data = variant.game_data()
    assert data.solo_target_base == 65 != published.solo_target_base
    (changed,) = [e for e in data.events if e.id == 65]
    (published_65,) = [e for e in published.events if e.id == 65]
    assert changed.immediate[0].params["count"] == 2
    assert published_65.immediate[0].params["count"] == 1
    assert changed.round_rule == published_65.round_rule


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # unknown section, entry and key: the valid names are listed
        ("[corporations.cosmos_inc]\nrovers = 2\n", "bad.toml: [corporations]: unknown section 'corporations'; valid: terrains, family"),
        ("[corporation.cosmo]\nrovers = 2\n", "bad.toml: [corporation.cosmo]: unknown corporation 'cosmo'; valid keys: universal_coalition, cosmos_inc"),
        ("[corporation.cosmos_inc]\nrover = 2\n", "bad.toml: [corporation.cosmos_inc.rover]: unknown key 'rover'; valid keys: "),
        ("[corporation.cosmos_inc.tracks]\nwatr = []\n", "bad.toml: [corporation.cosmos_inc.tracks.watr]: unknown key 'watr'; valid keys: biomass, civ, rover, tech, water"),
        ("[corporation.cosmos_inc.tech.7]\ntext = 'x'\n", "bad.toml: [corporation.cosmos_inc.tech.7]: unknown tech '7'; valid levels: 1, 2, 3, 4, 5"),
        # wrong types
        ("[corporation.cosmos_inc]\nrovers = 'two'\n", "bad.toml: [corporation.cosmos_inc.rovers]: expected an integer, got 'two'"),
        ("[corporation.cosmos_inc]\ntracks = 3\n", "bad.toml: [corporation.cosmos_inc.tracks]: expected a table, got 3"),
        ("[corporation.cosmos_inc.tracks]\nwater = { 16 = 'medal:1' }\n", "bad.toml: [corporation.cosmos_inc.tracks.water.16]: '16' is not an index of this list (0..15"),
        ("[corporation.cosmos_inc]\nkey = 'cosmos'\n", "bad.toml: [corporation.cosmos_inc.key]: 'key' names the entry and cannot change"),
        # an optional key another entry uses is taken whole, type-checked
        ("[planet.ksb_4156]\nquadrant_banned_icon = 3\n", "bad.toml: [planet.ksb_4156.quadrant_banned_icon]: expected a table, got 3"),
        ("[planet.ksb_4156.quadrant_banned_icon]\n1 = 'water'\n", "bad.toml: planets.toml: planet 'ksb_4156': unknown key(s) 'quadrant_banned_icon'"),
        # the loader's own checks, on the merged data
        ("[corporation.cosmos_inc.tracks]\nwater = ['', 'medal:1']\n", "bad.toml: corporations.toml: corporation 'cosmos_inc': tracks.water: expected a list of 16 spaces"),
        ("[corporation.cosmos_inc]\nrovers = 2\n", "bad.toml: corporations.toml: corporation 'cosmos_inc': rovers = 2 but the rover track has 1 rover milestones"),
        ("[corporation.cosmos_inc.tracks]\nwater = { 15 = 'medal:-3' }\n", "bad.toml: corporations.toml: corporation 'cosmos_inc': tracks.water[15]: "),
        # meta, options and syntax
        ("[variant]\nnam = 'x'\n", "bad.toml: [variant]: unknown key 'nam'; valid keys: description, name"),
        ("[options]\ncivpick = 1\n", "bad.toml: [options]: unknown rule option 'civpick'; valid: "),
        ("[options]\nciv_pick_timing = 'never'\n", "bad.toml: [options.civ_pick_timing]: civ_pick_timing must be one of"),
        ("[corporation.cosmos_inc\n", "bad.toml: invalid TOML: "),
    ],
)  # fmt: skip
def test_bad_variants_get_one_line_naming_file_entry_and_key(
    text: str, expected: str
) -> None:
    with pytest.raises(DataError) as info:
        Variant.from_text(text, "bad.toml")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(expected), message


def test_missing_variant_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"nowhere\.toml: variant file not found"):
        Variant.read(tmp_path / "nowhere.toml")


def test_manifest_record_round_trips() -> None:
    variant = Variant.from_text(COSMOS_WATER_TOP, "cosmos.toml")
    record = variant.manifest()
    assert record["files"] == [
        {"name": "cosmos.toml", "digest": variant.files[0].digest,
         "text": COSMOS_WATER_TOP}
    ]  # fmt: skip
    again = Variant.from_manifest(record)
    assert again == variant and again.digest == variant.digest
    edited = {**record, "digest": "0" * 64}
    with pytest.raises(DataError, match="does not match its recorded digest"):
        Variant.from_manifest(edited)


def test_the_docs_examples_load() -> None:
    """Every variant and search file shown in docs/variants.md is valid."""
    import re
    import tomllib

    from pu_sim.variants.balance.space import parse_space

    docs = Path(__file__).resolve().parents[1] / "docs" / "variants.md"
    blocks = re.findall(r"```toml\n(.*?)```", docs.read_text(), flags=re.S)
    variants = [b for b in blocks if b.startswith("[variant]")]
    searches = [b for b in blocks if b.startswith("[search]")]
    assert len(variants) >= 2 and searches
    for block in variants:
        Variant.from_text(block, "docs.toml")
    for block in searches:
        parse_space(tomllib.loads(block), "docs.toml", block)


def test_the_committed_example_search_and_patches_load() -> None:
    """The example search file and the patches it wrote stay valid variants."""
    from pu_sim.variants.balance import read_space

    root = Path(__file__).resolve().parents[1] / "experiments" / "variants"
    space = read_space(root / "cosmos_wormhole_4p.toml")
    assert {c.name for c in space.changes} >= {"cosmos_civ15", "wormhole_civ15"}
    patches = sorted((root / "patches").glob("*.toml"))
    assert patches
    for patch in patches:
        assert Variant.read(patch).game_data() != load_game_data()
