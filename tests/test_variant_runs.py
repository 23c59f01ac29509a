"""Variants through every entry point: simulate, run, Game, replay and the CLI.

The contract: the identity variant plays the published games exactly; a
variant's games are reproducible per seed; a run folder keeps the variant's
full text and digest, replays with it, and refuses to resume with another.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pu_sim
from pu_sim.cli.main import main as cli_main
from pu_sim.rules import Variant
from pu_sim.simulation.replay import replay
from pu_sim.simulation.runfolder import RunFolderError, read_manifest

TABLE = {"players": 2, "corporations": ["cosmos_inc", "universal_coalition"],
         "bots": "greedy", "paired": True}  # fmt: skip

RICHER_COSMOS = """
[variant]
name = "richer-cosmos"
[corporation.cosmos_inc.tracks]
water = { 2 = "medal:4", 4 = "medal:5", 6 = "medal:6", 8 = "medal:7", 10 = "medal:8", 13 = "medal:10", 15 = "medal:13" }
"""


@pytest.fixture(scope="module")
def richer() -> Variant:
    return Variant.from_text(RICHER_COSMOS, "richer.toml")


def test_identity_variant_plays_the_published_games() -> None:
    published = pu_sim.simulate(8, seed=3, n_jobs=1, **TABLE)  # type: ignore[arg-type]
    identity = Variant.from_text("[variant]\nname = 'same'\n", "same.toml")
    same = pu_sim.simulate(8, seed=3, n_jobs=1, variant=identity, **TABLE)  # type: ignore[arg-type]
    assert same.equals(published)


def test_a_variant_changes_the_games_reproducibly(richer: Variant) -> None:
    published = pu_sim.simulate(8, seed=3, n_jobs=1, **TABLE)  # type: ignore[arg-type]
    first = pu_sim.simulate(8, seed=3, n_jobs=1, variant=richer, **TABLE)  # type: ignore[arg-type]
    again = pu_sim.simulate(8, seed=3, n_jobs=2, batch_size=3, variant=richer, **TABLE)  # type: ignore[arg-type]
    assert first.equals(again)
    assert not first.equals(published)


def test_game_takes_a_variant_by_path(tmp_path: Path) -> None:
    path = tmp_path / "richer.toml"
    path.write_text(RICHER_COSMOS)
    game = pu_sim.Game(seed=2, variant=path, **TABLE)  # type: ignore[arg-type]
    cosmos = next(c for c in game.rules.data.corporations if c.key == "cosmos_inc")
    assert cosmos.tracks["water"].spaces[15].medal == 13
    game.play()
    frame = pu_sim.simulate(2, seed=2, n_jobs=1, variant=path, **TABLE)  # type: ignore[arg-type]
    scores = frame.filter(game_id=0)["score"].to_list()
    assert [game.player(p)["score"] for p in range(2)] == scores


def test_run_manifest_keeps_the_variant_and_replays_it(
    tmp_path: Path, richer: Variant
) -> None:
    out = tmp_path / "run"
    result = pu_sim.run(4, out=out, seed=9, n_jobs=1, variant=richer, **TABLE)  # type: ignore[arg-type]
    record = read_manifest(out).to_json()["config"]["variant"]
    assert record["digest"] == richer.digest
    assert record["files"][0]["text"] == RICHER_COSMOS
    assert Variant.from_manifest(record) == richer
    game = replay(out, 1)
    assert game.table.variant == richer
    game.play()
    scores = result.scan().filter(game_id=1).collect()["score"].to_list()
    assert [game.player(p)["score"] for p in range(2)] == scores


def test_resume_with_another_variant_is_refused(
    tmp_path: Path, richer: Variant
) -> None:
    out = tmp_path / "run"
    pu_sim.run(4, out=out, seed=9, n_jobs=1, variant=richer, **TABLE)  # type: ignore[arg-type]
    other = Variant.from_text(RICHER_COSMOS.replace("medal:13", "medal:14"), "x.toml")
    with pytest.raises(RunFolderError, match="variant 'richer-cosmos'"):
        pu_sim.run(4, out=out, seed=9, n_jobs=1, variant=other, **TABLE)  # type: ignore[arg-type]
    with pytest.raises(RunFolderError, match=r"here none \(the published game\)"):
        pu_sim.run(4, out=out, seed=9, n_jobs=1, **TABLE)  # type: ignore[arg-type]
    again = pu_sim.run(8, out=out, seed=9, n_jobs=1, variant=richer, **TABLE)  # type: ignore[arg-type]
    assert again.games_resumed == 4


def test_cli_variant_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "richer.toml"
    path.write_text(RICHER_COSMOS)
    out = tmp_path / "run"
    code = cli_main(["simulate", "--games", "4", "--players", "2", "--paired",
                     "--corporations", "cosmos_inc,universal_coalition",
                     "--variant", str(path), "--out", str(out), "--no-progress"])  # fmt: skip
    assert code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["variant"]["name"] == "richer-cosmos"


def test_cli_bad_variant_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[corporation.cosmos_inc]\nrover = 2\n")
    out = tmp_path / "run"
    code = cli_main(["simulate", "--games", "2", "--variant", str(path),
                     "--out", str(out)])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip().splitlines() == [
        "pu-sim: error: bad.toml: [corporation.cosmos_inc.rover]: unknown key "
        + err.split("unknown key ", 1)[1].strip()
    ]
    assert "'rover'" in err and "rovers" in err
    assert not out.exists()  # nothing half-runs


def test_process_workers_play_the_variant(tmp_path: Path, richer: Variant) -> None:
    threads = pu_sim.run(
        4, out=tmp_path / "t", seed=4, n_jobs=1, variant=richer, **TABLE
    )  # type: ignore[arg-type]
    processes = pu_sim.run(
        4, out=tmp_path / "p", seed=4, n_jobs=2, batch_size=2, backend="processes",
        variant=richer, **TABLE,  # type: ignore[arg-type]
    )  # fmt: skip
    a = threads.scan().collect().sort("game_id", "seat")
    b = processes.scan().collect().sort("game_id", "seat")
    assert a.equals(b)


def test_a_study_plays_a_variant(tmp_path: Path) -> None:
    """A designer study's --variant reaches every run and its own report folder."""
    from experiment_scripts import load

    path = tmp_path / "richer.toml"
    path.write_text(RICHER_COSMOS)
    module = load("seat_order")
    argv = ["--smoke", "--out", str(tmp_path), "--jobs", "1", "--variant", str(path)]
    assert module.main(argv) == 0
    report = tmp_path / module.STUDY / "smoke-variant-richer-cosmos"
    manifests = list(report.glob("runs/*/manifest.json"))
    assert manifests
    for manifest in manifests:
        record = json.loads(manifest.read_text())["config"]["variant"]
        assert record["name"] == "richer-cosmos"


def test_a_variant_is_its_text_not_its_file_name(tmp_path: Path) -> None:
    first = tmp_path / "richer.toml"
    first.write_text(RICHER_COSMOS)
    renamed = tmp_path / "renamed.toml"
    renamed.write_text(RICHER_COSMOS)
    assert Variant.read(first) == Variant.read(renamed)
    assert Variant.read(first).digest == Variant.read(renamed).digest
    out = tmp_path / "run"
    pu_sim.run(4, out=out, seed=1, n_jobs=1, variant=first, **TABLE)  # type: ignore[arg-type]
    more = pu_sim.run(6, out=out, seed=1, n_jobs=1, variant=renamed, **TABLE)  # type: ignore[arg-type]
    assert more.games_resumed == 4 and more.games_played == 2
    edited = tmp_path / "edited.toml"
    edited.write_text(RICHER_COSMOS.replace("medal:13", "medal:14"))
    with pytest.raises(RunFolderError, match="variant"):
        pu_sim.run(6, out=out, seed=1, n_jobs=1, variant=edited, **TABLE)  # type: ignore[arg-type]


def test_a_folder_recorded_with_the_named_digest_still_replays(
    tmp_path: Path, richer: Variant
) -> None:
    out = tmp_path / "run"
    pu_sim.run(2, out=out, seed=1, n_jobs=1, variant=richer, **TABLE)  # type: ignore[arg-type]
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["config"]["variant"]["digest"] = richer.named_digest()  # as before
    del manifest["record_sha256"], manifest["parts"]  # as before: no checksums
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert replay(out, 1).rules.variant == richer
    again = pu_sim.run(2, out=out, seed=1, n_jobs=1, variant=richer, **TABLE)  # type: ignore[arg-type]
    assert again.games_played == 0


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "the variant is empty"),
        ("# only a comment\n", "the variant is empty"),
        ("[options]\n", "has no [variant] table"),
        ("[variant]\ndescription = 'x'\n", "names nothing"),
    ],
)
def test_a_variant_that_changes_nothing_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: str
) -> None:
    path = tmp_path / "nothing.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=r"nothing\.toml") as info:
        Variant.read(path)
    assert words in str(info.value)
    code = cli_main(["simulate", "--games", "2", "--variant", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "nothing.toml" in err and words in err


def test_load_rules_takes_a_path_like_every_entry_point(tmp_path: Path) -> None:
    path = tmp_path / "richer.toml"
    path.write_text(RICHER_COSMOS)
    rules = pu_sim.load_rules(variant=path)
    assert rules.variant == Variant.read(path)
    assert pu_sim.load_rules(variant=str(path)) is rules
    with pytest.raises(TypeError, match="variant must be"):
        pu_sim.load_rules(variant=5)  # type: ignore[arg-type]
