"""The policy bot (policy_td): values learned by self-play, another family than greedy.

It plays every corporation and planet at every player count, its games are a
function of the seed alone, its network is a checked fitted table refused
when learned on another engine version, and a short self-play run from zero
makes it play better than the untrained network.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest
from polars.testing import assert_frame_equal

import pu_sim
from pu_sim import bots
from pu_sim.bots import fitted
from pu_sim.cli import main
from pu_sim.engine import core, load_rules
from pu_sim.lab import policy_td
from pu_sim.simulation.plan import Plan
from pu_sim.simulation.table import TableSetup

ONE_PLY = "policy_td:roll=0"  # the preset without its solo rollouts
GOLDEN = Path(__file__).parent / "golden"


def test_policy_td_is_a_preset_of_the_policy_kind_listed_by_the_cli(capsys):
    spec = bots.parse("policy_td")
    assert spec.kind == "policy" and spec.label == "policy_td"
    assert "policy_td" in bots.BOT_NAMES and "policy" in bots.BOT_KINDS
    main(["list", "bots"])
    out = capsys.readouterr().out
    assert "policy_td" in out and "policy settings" in out


def test_it_plays_every_corporation_and_planet_at_one_to_six_players():
    data = load_rules().data
    corps = [c.key for c in data.corporations]
    planets = [p.key for p in data.planets]
    seen_planets: set[str] = set()
    seen_players: set[int] = set()
    k = 0
    for i, corp in enumerate(corps):
        for players in (1 + i % 6, 6 - i % 6):
            seats = [planets[(k + s) % len(planets)] for s in range(players)]
            k += players
            df = pu_sim.simulate(2, players=players, corporations=corp,
                                 planets=seats, bots="policy_td", seed=i,
                                 unique_asymmetric=False)  # fmt: skip
            assert (df["status"] == "ok").all(), (corp, players)
            assert df["score"].min() >= 0
            seen_planets |= set(seats)
            seen_players.add(players)
    assert seen_planets == set(planets) and seen_players == set(range(1, 7))


def test_same_seed_same_games_whatever_n_jobs_and_batch_size():
    kw = dict(players=3, bots="policy_td", corporations="random",
              planets="random", seed=61)  # fmt: skip
    base = pu_sim.simulate(12, n_jobs=1, batch_size=12, **kw)
    assert_frame_equal(base, pu_sim.simulate(12, n_jobs=2, batch_size=5, **kw))
    assert_frame_equal(base, pu_sim.simulate(12, n_jobs=1, batch_size=1, **kw))


def test_it_sits_among_other_bots():
    df = pu_sim.simulate(4, players=3, bots=["policy_td", "greedy_tuned", "random"],
                         corporations="random", planets="random", seed=3)  # fmt: skip
    assert (df["status"] == "ok").all()


def test_the_packaged_network_is_a_checked_table_with_its_command():
    meta = tomllib.loads((fitted.FITTED_DIR / "policy.toml").read_text())
    assert (
        meta["command"].startswith(policy_td.COMMAND) and "--write" in meta["command"]
    )
    assert meta["engine_version"] == core.engine_version()
    table = fitted.load_table("policy")
    c = core.constants()
    sizes = [table[name].size for name in fitted.TABLES["policy"].arrays]
    assert sum(sizes) == c["POLICY_N"]
    for name in fitted.TABLES["policy"].arrays:
        assert table[name].shape == fitted.TABLES["policy"].shape(name, c)
        assert np.isfinite(table[name]).all()
    assert np.abs(policy_td.zeros() + 1).sum() > 0  # sanity of the helper
    assert any(np.abs(table[name]).sum() > 0 for name in table.arrays)  # learned


@pytest.mark.parametrize("schedule", [
    policy_td.Schedule(),
    policy_td.Schedule(games=500, seed=3, coherence=False, players=(1, 3), lam=0.9),
    policy_td.Schedule(games=10, watch="greedy_tuned", alpha=0.2),
    policy_td.Schedule(games=10, tune=(60, 20), tune_games=300),
])  # fmt: skip
def test_the_written_command_asks_for_the_same_schedule(schedule):
    """The command written beside the weights gives back their schedule."""
    argv = policy_td.command(schedule).split()[3:]
    assert argv[-1] == "--write"
    assert policy_td.parse(argv)[0] == schedule


@pytest.mark.parametrize(("argv", "message"), [
    (["--against", "greedy_lerned", "--measure", "10"], "--against: unknown bot"),
    (["--watch", "nobody"], "--watch: unknown bot"),
    (["--players", "1,7"], "player counts are comma-separated whole numbers 1-6"),
    (["--measure-players", "3,x"], "not '3,x'"),
    (["--measure", "10", "--measure-players", "1,4"], "--measure-players: counts 2-6"),
    (["--tune", "60"], "--tune takes two whole numbers COARSE,FINE"),
    (["--tune", "6,-1"], "not '6,-1'"),
    (["--tune", "6,2", "--tune-games", "0"], "--tune-games: at least 1 game, not 0"),
])  # fmt: skip
def test_bad_lab_flags_are_refused_in_one_line_before_any_training(
    argv, message, capsys
):
    with pytest.raises(SystemExit):
        policy_td.main(argv)
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert message in err and "Traceback" not in err


def _folder_with(tmp_path, weights, version=None):
    folder = policy_td.tables_with(weights, tmp_path / "fitted")
    if version is not None:
        toml = folder / "policy.toml"
        text = toml.read_text().replace(
            f"engine_version = {core.engine_version()}", f"engine_version = {version}"
        )
        toml.write_text(text)
    return folder


def test_a_network_of_another_engine_version_is_refused_in_one_line(tmp_path):
    folder = _folder_with(
        tmp_path, policy_td.zeros(), version=core.engine_version() - 1
    )
    rules = load_rules(folder)
    plan = Plan.of(TableSetup(players=1, bots="policy_td"), seed=1)
    with pytest.raises(ValueError, match="engine version") as err:
        core.play_batch(rules.core, plan.spec, plan.key, 0, 1)
    assert "\n" not in str(err.value) and policy_td.COMMAND in str(err.value)
    greedy = Plan.of(TableSetup(players=1, bots="greedy"), seed=1)
    core.play_batch(rules.core, greedy.spec, greedy.key, 0, 1)  # other bots play on


def test_a_network_of_the_wrong_shape_is_refused(tmp_path):
    folder = _folder_with(tmp_path, policy_td.zeros())
    arrays = dict(np.load(folder / "policy.npz"))
    arrays["window"] = arrays["window"][:, :-1]
    np.savez(folder / "policy.npz", **arrays)
    with pytest.raises(fitted.FittedTableError, match="window"):
        load_rules(folder)
    shutil.rmtree(folder)


@pytest.mark.parametrize("coherence", [False, True])
def test_a_thousand_games_of_self_play_from_zero_raise_the_score(tmp_path, coherence):
    """A property, not a number: the network learned from zero on 1,000 solo
    games plays the same 300 held-out games better than the untrained one, with
    a fixed step size and with temporal coherence's per-weight steps (which
    start small: at 600 games they had gained only 0.1-1.0 points)."""
    schedule = policy_td.Schedule(games=1000, chunk=100, players=(1,), seed=5,
                                  alpha=0.3, alpha_end=0.3,
                                  coherence=coherence)  # fmt: skip
    learned = policy_td.train(schedule)
    plan = Plan.of(TableSetup(players=1, corporations="random", planets="random",
                              bots=ONE_PLY), seed=99)  # fmt: skip

    def mean(weights, name):
        rules = load_rules(policy_td.tables_with(weights, tmp_path / name)).core
        out = core.play_batch(rules, plan.spec, plan.key, 0, 300)
        return float(np.mean(out["score"]))

    assert np.abs(learned).sum() > 0
    assert policy_td.train(schedule).tolist() == learned.tolist()  # seeded
    assert mean(learned, "learned") > mean(policy_td.zeros(), "zero") + 1.0


def test_the_lab_measures_the_network_it_is_given_on_random_boards(tmp_path):
    """--measure plays the weights it was handed: the packaged network's copy
    scores what the packaged preset scores on the same seeds, and the zero
    network plays worse."""
    table = fitted.load_table("policy")
    packaged = np.concatenate(
        [table[a].ravel() for a in fitted.TABLES["policy"].arrays]
    )
    result = policy_td.measure(policy_td.tables_with(packaged, tmp_path / "a"),
                               solo=8, setups=4, seed=31, player_counts=(2,))  # fmt: skip
    same = pu_sim.simulate(8, players=1, bots="policy_td", corporations="random",
                           planets="random", seed=31)["score"].mean()  # fmt: skip
    assert result["solo"]["policy_td"]["mean"] == pytest.approx(same)
    assert 0.0 <= result["ahead"][2]["share"] <= 1.0
    zero = policy_td.measure(policy_td.tables_with(policy_td.zeros(), tmp_path / "z"),
                             solo=8, setups=4, seed=31, player_counts=())  # fmt: skip
    assert zero["solo"]["policy_td"]["mean"] < same
    assert zero["solo"]["greedy"] == result["solo"]["greedy"] | {
        "games_per_s": zero["solo"]["greedy"]["games_per_s"]
    }


def test_temporal_coherence_scales_each_weight_by_how_its_corrections_agree():
    """With coherence each weight keeps the sum of its corrections and of their
    sizes (so its rate |sum| / sizes lies in 0..1), moves by at most the fixed
    step and by exactly it while its corrections agree; the steps differ from
    the fixed step's once corrections disagree; a buffer of the wrong size is
    refused in one line."""
    rules = load_rules().core
    plan = Plan.of(TableSetup(players=1, corporations="random", planets="random",
                              bots="policy_td"), seed=3)  # fmt: skip
    plain, tuned = policy_td.zeros(), policy_td.zeros()
    tc = np.zeros(2 * plain.size)
    core.policy_train(rules, plan.spec, plain, plan.key, 0, 30, (0.5, 0.8, 0.1))
    core.policy_train(rules, plan.spec, tuned, plan.key, 0, 30, (0.5, 0.8, 0.1),
                      coherence=tc)  # fmt: skip
    sums, sizes = tc[: plain.size], tc[plain.size :]
    touched = sizes > 0
    assert touched.sum() > 100
    assert (np.abs(sums[touched]) <= sizes[touched] + 1e-12).all()
    assert (np.abs(sums[touched]) < sizes[touched] - 1e-9).any()  # some disagreed
    assert not (tuned[~touched]).any()
    # each step is at most the fixed step (rate <= 1), and exactly it for a
    # weight whose corrections all kept one sign (rate 1 throughout)
    assert (np.abs(tuned[touched]) <= 0.5 * sizes[touched] + 1e-9).all()
    agreed = touched & np.isclose(np.abs(sums), sizes)
    assert agreed.sum() > 10
    assert np.allclose(tuned[agreed], 0.5 * sums[agreed])
    assert not np.allclose(plain, tuned)
    with pytest.raises(
        ValueError, match=f"coherence must hold {2 * plain.size} values"
    ):
        core.policy_train(rules, plan.spec, plain, plan.key, 0, 1, (0.5, 0.8, 0.1),
                          coherence=np.zeros(3))  # fmt: skip


def test_the_tile_lookahead_plays_and_its_setting_is_checked():
    df = pu_sim.simulate(3, players=1, bots="policy_td:look=4", seed=2,
                         corporations="random", planets="random")  # fmt: skip
    assert (df["status"] == "ok").all()
    with pytest.raises(ValueError, match="look must be a whole number"):
        bots.parse("policy_td:look=2.5")
    with pytest.raises(ValueError, match=r"rotation must be 0\.\.1"):
        bots.parse("policy_td:rotation=3")


ROLLING = "policy_td:roll=6:roll_redeals=2"


def first_difference(
    seed: int, first: str = ONE_PLY, second: str = ROLLING
) -> int | None:
    """Solo, two bots in lockstep on one seed: the rounds still to come at
    their first different move (None: the same game), as the bot reads them:
    the event cards left, none in a triggered last round."""
    plain = pu_sim.Game(players=1, bots=first, seed=seed)
    rolling = pu_sim.Game(players=1, bots=second, seed=seed)
    while not plain.is_terminal:
        move = plain.bot_move()
        if rolling.bot_move() != move:
            fields = plain.fields()
            return 0 if fields["last_round"] else len(fields["deck"])
        plain.apply(move)
        rolling.apply(move)
    return None


def test_rollouts_search_only_the_last_rounds_of_a_solo_game():
    """roll=6: the moves differ from the one-ply policy's in some games, never
    before the last six rounds the event deck counts; at 2 players (no
    rollouts: the other seat is unknown) the games are the same."""
    firsts = [first_difference(seed) for seed in range(4)]
    assert any(first is not None for first in firsts)
    assert all(first < 6 for first in firsts if first is not None)
    kw = dict(players=2, corporations="random", planets="random", seed=5)
    assert_frame_equal(pu_sim.simulate(4, bots=ONE_PLY, **kw).drop("bot"),
                       pu_sim.simulate(4, bots=ROLLING, **kw).drop("bot"))  # fmt: skip


def test_rollouts_cut_short_are_whole_ones_where_the_game_ends_first():
    """roll_horizon=3 within the last 3 rounds: no rollout sees 3 more rounds
    begin, so the games are those of rollouts played to the end."""
    whole = "policy_td:roll=3:roll_width=3:roll_redeals=2:roll_horizon=0"
    for seed in range(3):
        assert (
            first_difference(seed, whole, whole.replace("horizon=0", "horizon=3"))
            is None
        )


def test_rollouts_cut_short_change_the_play():
    """roll_horizon=1: the network judges a rollout when the next round
    begins, so some moves differ from those of rollouts to the end; none
    before the rounds that roll out."""
    whole = "policy_td:roll=3:roll_width=3:roll_redeals=2:roll_horizon=0"
    firsts = [first_difference(seed, whole, whole.replace("horizon=0", "horizon=1"))
              for seed in range(4)]  # fmt: skip
    assert any(first is not None for first in firsts)
    assert all(first < 3 for first in firsts if first is not None)


def test_rollouts_raise_the_solo_score_on_paired_seeds():
    kw = dict(players=1, corporations="random", planets="random", seed=77)
    plain = pu_sim.simulate(40, bots=ONE_PLY, **kw)["score"].mean()
    rolled = pu_sim.simulate(40, bots="policy_td", **kw)  # the preset rolls out
    # paired over 1,000 other seeds: 47.3 one-ply, 57.9 rolled out (docs/bots.md)
    assert rolled["score"].mean() > plain + 5


def tile_of(move: int) -> int:
    """The depot tile (0 or 1) a placement move places (its bit 12)."""
    return (move >> 12) & 1


def best_first(values: list[float], among: list[int]) -> list[int]:
    """Indices of `among` by value, best first, the first of equals first."""
    return sorted(among, key=lambda i: (-values[i], i))


def test_a_placement_rolls_out_each_tiles_best_few():
    """roll_tile_width=3 (the preset): at a solo placement the rollouts weigh
    the best 3 placements of each of the depot's two tiles by afterstate, even
    where the best 5 are one tile's; every other decision, and placements with
    roll_tile_width=0, the best roll_width=5."""
    preset = bots.parse("policy_td").vector()
    by_value = bots.parse("policy_td:roll_tile_width=0").vector()
    one_tile, placements = 0, 0
    for seed in range(3):
        game = pu_sim.Game(players=1, bots=ONE_PLY, seed=seed,
                           corporations="random", planets="random")  # fmt: skip
        while not game.is_terminal:
            moves = game.legal_moves()
            # not the moves the bot never weighs: a shift that goes round
            # (policy_shift.pxi), rovers moved between items (policy.pxi)
            if len(moves) > 1 and game.decision not in ("direction", "order"):
                values = game.state.policy_values()
                best5 = best_first(values, list(range(len(moves))))[:5]
                assert game.state.policy_roll_candidates(by_value) == best5
                wanted = best5
                if game.decision == "place":
                    tiles = [[i for i in range(len(moves)) if tile_of(moves[i]) == t]
                             for t in (0, 1)]  # fmt: skip
                    wanted = [i for t in tiles for i in best_first(values, t)[:3]]
                    placements += 1
                    both_fit = min(map(len, tiles)) > 1
                    one_tile += (
                        both_fit and len({tile_of(moves[i]) for i in best5}) == 1
                    )
                assert game.state.policy_roll_candidates(preset) == wanted
            game.apply(game.bot_move())
    assert placements > 40 and one_tile > 5  # the case the setting is for


@pytest.mark.parametrize(
    ("setting", "words"),
    [("roll=21", "roll must be a whole number 0..20"),
     ("roll_width=0", "roll_width must be a whole number 1..16"),
     ("roll_redeals=0.5", "roll_redeals must be a whole number 1..64"),
     ("roll_horizon=-1", "roll_horizon must be a whole number 0..20"),
     ("roll_tile_width=9", "roll_tile_width must be a whole number 0..8"),
     ("roll_finalists=17", "roll_finalists must be a whole number 0..16"),
     ("roll_more=65", "roll_more must be a whole number 0..64")],
)  # fmt: skip
def test_rollout_settings_out_of_bounds_are_refused(setting, words):
    with pytest.raises(ValueError, match=words):
        bots.parse(f"policy_td:{setting}")


def test_watching_another_bot_learns_from_its_games_without_changing_them():
    """--watch: every seat of the watched bot learns (the weights move) and its
    games are the ones it plays anyway (the learning seats' mean is theirs);
    without watching, a table with no policy seat learns nothing."""
    rules = load_rules().core
    plan = Plan.of(TableSetup(players=2, corporations="random", planets="random",
                              bots="greedy_tuned"), seed=7)  # fmt: skip
    played = core.play_batch(rules, plan.spec, plan.key, 0, 20)
    watched = policy_td.zeros()
    mean, seats, _ = core.policy_train(
        rules, plan.spec, watched, plan.key, 0, 20, (0.1, 0.8, 0.0), watch=True
    )
    assert seats == 40 and mean == pytest.approx(float(np.mean(played["score"])))
    assert np.abs(watched).sum() > 0
    idle = policy_td.zeros()
    core.policy_train(rules, plan.spec, idle, plan.key, 0, 20, (0.1, 0.8, 0.0))
    assert not idle.any()


def test_watching_the_policy_learns_from_its_committed_play():
    """--watch policy_td: the seats play the committed network (what
    `simulate` plays), whatever weights learn from them; self-play would play
    by the weights being learned (zero weights: the score as it stands)."""
    rules = load_rules().core
    plan = Plan.of(TableSetup(players=2, corporations="random", planets="random",
                              bots=ONE_PLY), seed=7)  # fmt: skip
    played = float(np.mean(core.play_batch(rules, plan.spec, plan.key, 0, 12)["score"]))
    means = []
    for start in (policy_td.zeros(), policy_td.zeros() + 0.5):
        learned = start.copy()
        mean, seats, _ = core.policy_train(
            rules, plan.spec, learned, plan.key, 0, 12, (0.1, 0.8, 0.0), watch=True
        )
        assert seats == 24 and not np.array_equal(learned, start)  # it learned
        means.append(mean)
    assert means == pytest.approx([played, played])
    selfplay, _, _ = core.policy_train(
        rules, plan.spec, policy_td.zeros(), plan.key, 0, 12, (0.0, 0.8, 0.0)
    )
    assert selfplay != pytest.approx(played)


def test_makeshift_shifts_never_go_round():
    """Civ and water row 8 are both synergy spaces, so with Makeshift's tech 3
    a tracker there can shift sideways back and forth, each shift paying for
    the next.  The one-ply policy used to do so until the decision limit (9 of
    2,000 solo Makeshift games).  From such a position (recorded moves of one
    game) the policy, one-ply and with its rollouts, finishes the game."""
    recorded = json.loads((GOLDEN / "makeshift_shift_loop_moves.json").read_text())
    table = dict(players=1, corporations="random", planets="random", seed=99,
                 game_index=166)  # fmt: skip
    for spec in (ONE_PLY, "policy_td:roll=20"):
        game = pu_sim.Game(bots=spec, **table)
        for move in recorded["moves"]:
            game.apply(move)
        info = game.player(0)
        rover_tracker, water = 3, 1
        assert game.board_names(0).startswith("Makeshift") and info["tech_level"] >= 3
        assert (info["col"][rover_tracker], info["track"][rover_tracker]) == (water, 8)
        assert game.decision == "synergy"
        steps = 0
        while not game.is_terminal and steps < 100:
            game.step()
            steps += 1
        assert game.is_terminal and game.status == "ok", (spec, steps)


def test_makeshift_shifts_with_an_item_order_between_never_go_round():
    """The same loop at a 2-player table, where the player also orders its
    pending items between shifts: the guard follows those decisions too.
    From the recorded position both seats' policy finishes the game."""
    from pu_sim.rules import load_game_data
    from pu_sim.simulation.seeds import RootSeed

    recorded = json.loads((GOLDEN / "makeshift_order_loop_moves.json").read_text())
    data = load_game_data()
    pools = dict(corporations=[tuple(sorted(data.playable_corporations))] * 2,
                 planets=[tuple(sorted(data.playable_planets))] * 2)  # fmt: skip
    seed = RootSeed.from_entropy(
        recorded["seed"]["entropy"], tuple(recorded["seed"]["spawn_key"])
    )
    game = pu_sim.Game(players=2, bots="policy_td", group_size=2, seed=seed,
                       game_index=recorded["game_index"], **pools)  # fmt: skip
    for move in recorded["moves"]:
        game.apply(move)
    seat = game.decider
    assert game.board_names(seat).startswith("Makeshift")
    assert game.player(seat)["tech_level"] >= 3 and game.decision == "order"
    steps = 0
    while not game.is_terminal and steps < 1000:
        game.step()
        steps += 1
    assert game.is_terminal and game.status == "ok", steps


def test_halving_rolls_the_finalists_out_more_and_plays_the_best_of_them():
    """roll_finalists=2 and roll_more=4 on roll_redeals=2: every candidate is
    rolled out on redeals 0-1, the best 2 by those sums on redeals 0-5 as well
    (the sums roll_redeals=6 gives them: redeal r is the same for every move),
    the rest no more; the bot plays the finalist with the best sum."""
    base = "policy_td:roll_horizon=1:roll_finalists=2:roll_more="
    first = bots.parse(base + "0:roll_redeals=2").vector()
    whole = bots.parse(base + "0:roll_redeals=6").vector()
    halving = bots.parse(base + "4:roll_redeals=2")
    game = pu_sim.Game(players=1, bots=[halving], seed=3,
                       corporations="random", planets="random")  # fmt: skip
    halved = 0
    while not game.is_terminal:
        if len(game.legal_moves()) > 1:
            weighed = game.state.policy_roll_totals(halving.vector())
            in_order = game.state.policy_roll_totals(first)  # candidates' order
            by_first = {i: t for i, t, _ in in_order}
            by_whole = {i: t for i, t, _ in game.state.policy_roll_totals(whole)}
            if len(weighed) > 2:
                halved += 1
                ranked = sorted(in_order, key=lambda c: -c[1])  # stable, as the core
                assert [i for i, _, _ in weighed] == [i for i, _, _ in ranked]
                assert [n for _, _, n in weighed] == [6, 6] + [2] * (len(weighed) - 2)
                for i, total, n in weighed:
                    assert total == pytest.approx((by_whole if n == 6 else by_first)[i])
            finalists = weighed[:2]
            if finalists:
                assert (
                    game.bot_move()
                    == game.legal_moves()[max(finalists, key=lambda f: f[1])[0]]
                )
        game.apply(game.bot_move())
    assert halved > 30
