"""One validation layer: types without truthiness, ranges, contradictions refused.

Each entry point (the CLI, the Python API, RuleOptions, TableSetup) refuses
the same bad input with one line; two inputs that cannot both hold are
refused naming both, never settled by whichever came last.
"""

from __future__ import annotations

import pytest

import pu_sim
from pu_sim.cli import main
from pu_sim.rules import RuleOptions
from pu_sim.rules.validation import Contradiction, check_bool, check_int, first_conflict

S = ["simulate", "--games", "2", "--no-progress"]


def error_line(capsys, argv) -> str:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    assert code == 2, argv
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize(
    ("call", "word"),
    [
        (lambda: pu_sim.TableSetup(paired="no"), "paired"),
        (lambda: pu_sim.TableSetup(paired=1), "paired"),
        (lambda: pu_sim.TableSetup(unique_asymmetric="false"), "unique_asymmetric"),
        (lambda: pu_sim.simulate(2, players=2, paired="no"), "paired"),
        (lambda: pu_sim.run(2, out="never-made", round_scores="false"), "round_scores"),
        (lambda: pu_sim.run(2, out="never-made", progress="no"), "progress"),
        (lambda: pu_sim.run(2, out="never-made", metadata="x"), "metadata"),
    ],
)
def test_strings_are_not_booleans(call, word, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=word) as info:
        call()
    assert "True or False" in str(info.value) or "mapping" in str(info.value)
    assert not (tmp_path / "never-made").exists()


@pytest.mark.parametrize(
    ("options", "word"),
    [
        ({"event_deck_mix": (1, 2, 3)}, "sums to 6"),
        ({"event_deck_mix": (-1, 11, 10)}, "counts >= 0"),
        ({"event_deck_mix": (True, True, 18)}, "counts >= 0"),
        ({"event_deck_mix": (7, 7)}, "event_deck_mix"),
        ({"event_deck_mix": "lots"}, "lots"),
        ({"station_interior_slots": ("a",)}, "station_interior_slots"),
        ({"station_exterior_slots": "straight-3"}, "station_exterior_slots"),
    ],
)
def test_rule_options_are_checked_when_made(options, word):
    with pytest.raises(ValueError, match=word):
        RuleOptions(**options)


def test_rule_options_take_a_list_as_its_tuple():
    assert RuleOptions(event_deck_mix=[7, 7, 6]).event_deck_mix == (7, 7, 6)
    assert hash(RuleOptions(event_deck_mix=[7, 7, 6])) == hash(RuleOptions())


def test_a_multiplayer_module_in_a_solo_game_is_refused():
    with pytest.raises(Contradiction, match="players=1"):
        pu_sim.simulate(1, players=1, options=RuleOptions(private_objectives=True))
    with pytest.raises(Contradiction, match="private_objectives"):
        pu_sim.Game(players=1, options=RuleOptions(private_objectives=True))


@pytest.mark.parametrize(
    ("flags", "first", "second"),
    [
        (["--events", "--no-events"], "--events", "--no-events"),
        (["--no-events", "--option", "event_deck=true"], "--no-events",
         "--option event_deck=true"),
        (["--events", "--option", "event_deck=false"], "--events",
         "--option event_deck=false"),
        (["--deck", "7,7,6", "--option", "event_deck=false"], "--deck 7,7,6",
         "--option event_deck=false"),
        (["--deck", "7,7,6", "--option", "event_deck_mix=6,7,7"], "--deck 7,7,6",
         "--option event_deck_mix=6,7,7"),
        (["--option", "civ_pick_timing=on_milestone", "--option",
          "civ_pick_timing=end_of_round"], "civ_pick_timing=on_milestone",
         "civ_pick_timing=end_of_round"),
        (["--players", "2", "--players", "3"], "--players 2", "--players 3"),
        (["--private-objectives"], "--private-objectives", "--players 1"),
        (["--option", "neighbour_objectives=true"], "neighbour_objectives",
         "--players 1"),
        (["--players", "2", "--private-objectives", "--option",
          "private_objectives=false"], "--private-objectives",
         "private_objectives=false"),
    ],
)  # fmt: skip
def test_contradicting_flags_are_refused_naming_both(capsys, flags, first, second):
    err = error_line(capsys, [*S, *flags])
    assert first in err and second in err and "contradicts" in err, err


def test_a_variant_file_and_an_option_flag_that_disagree_are_refused(capsys, tmp_path):
    file = tmp_path / "late.toml"
    file.write_text('[variant]\nname = "late"\n[options]\n'
                    'civ_pick_timing = "on_milestone"\n')  # fmt: skip
    err = error_line(
        capsys, [*S, "--variant", str(file), "--option",
                 "civ_pick_timing=end_of_round"],
    )  # fmt: skip
    assert "--variant late.toml" in err and "civ_pick_timing=end_of_round" in err


def test_flags_beside_a_replay_are_refused(capsys, tmp_path):
    pu_sim.run(2, out=tmp_path / "run", bots="random", seed=1)
    run = str(tmp_path / "run")
    for extra in (["--players", "3"], ["--seed", "4"], ["--events"],
                  ["--bots", "greedy"], ["--game-index", "1"]):  # fmt: skip
        err = error_line(capsys, ["play", "--run", run, "--game", "0", *extra])
        assert f"--run {run}" in err and extra[0] in err, err


def test_a_compare_arm_the_baseline_already_plays_is_refused(capsys, tmp_path):
    err = error_line(
        capsys, ["compare", "--games", "2", "--option-variant",
                 "civ_pick_timing=end_of_round", "--out", str(tmp_path / "c")],
    )  # fmt: skip
    assert "--option-variant civ_pick_timing=end_of_round" in err
    assert not (tmp_path / "c").exists()


def test_the_primitives():
    assert check_bool(True, "x") is True
    with pytest.raises(ValueError, match="x must be True or False, got 'yes'"):
        check_bool("yes", "x")
    assert check_int(3, "n", 1, 6) == 3
    with pytest.raises(ValueError, match="n must be a positive integer"):
        check_int(0, "n", 1)
    with pytest.raises(ValueError, match="got True"):
        check_int(True, "n")
    conflict = first_conflict([("--a", "x", 1), ("--b", "y", 2), ("--c", "x", 3)])
    assert conflict is not None and conflict.inputs == ("--a", "--c")
    assert first_conflict([("--a", "x", 1), ("--b", "x", 1)]) is None


@pytest.mark.parametrize("kind", ["corporation", "planet"])
def test_a_studys_board_names_are_checked_naming_the_kind(kind):
    from pu_sim.rules import load_game_data
    from pu_sim.simulation.table import check_names

    data = load_game_data()
    check_names(kind, "random", data)
    with pytest.raises(ValueError, match=f"^unknown {kind} 'nowhere'; valid {kind}s: "):
        check_names(kind, "nowhere", data)
    with pytest.raises(TypeError, match=f"^a seat's {kind} is a name"):
        check_names(kind, 7, data)  # type: ignore[arg-type]


def test_a_frame_too_big_for_memory_is_refused_in_gib(monkeypatch):
    from pu_sim.simulation import checks

    monkeypatch.setattr(checks, "physical_memory", lambda: 2**30)
    with pytest.raises(ValueError, match=r"^536,870,912 result rows need about 1\.0 GiB"
                       r" in memory \(this machine has 1\.0 GiB\)"):  # fmt: skip
        checks.check_fits_in_memory(2**29, 1)
    checks.check_fits_in_memory(2**20, 1)  # a small frame is fine


def test_unknown_table_arguments_are_all_named():
    with pytest.raises(TypeError, match=r"^unknown table argument\(s\) colour, size; "):
        pu_sim.simulate(1, colour="red", size=3)  # type: ignore[call-arg]
