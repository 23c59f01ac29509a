"""Scenario tests: a game whose position a test sets by hand.

:class:`ScenarioGame` is a :class:`pu_sim.game.Game` with setters: draw a
player's planet as text (:mod:`pu_sim.testing.drawings`), put trackers, rovers
and depot tiles where the situation needs them, jump to a stage, reveal an
event or hand over cards and pending items; then the test plays the decision
under test and checks the outcome.  The setters write the core's state
directly, so they are for tests and rule checks, never for play.

Examples
--------
>>> from pu_sim.testing import ScenarioGame
>>> game = ScenarioGame(players=1, seed=3)
>>> game.set_tracks(0, {"rover": 4})
>>> game.tracks(0)["rover"]
4
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pu_sim.engine import Rules
from pu_sim.game import Game
from pu_sim.rules.gamedata import TERRAINS, TRACKS
from pu_sim.rules.planet_text import Cell, parse_planet, rows_of


class ScenarioGame(Game):
    """A game whose position a test may set (the setters below)."""

    def set_planet(
        self,
        p: int,
        text: str,
        *,
        meteorites: Iterable[Cell] = (),
        meteor_symbols: Iterable[Cell] = (),
        last_tile: Iterable[Cell] = (),
    ) -> None:
        """Replace player p's planet contents with a drawing (tokens as lists)."""
        drawing = parse_planet(text, self.planet_of(p))
        s = self.state
        s.set_grid(p, "occ", drawing.occ)
        s.set_grid(p, "patch", drawing.patch)
        for t in range(len(TERRAINS)):
            s.set_grid(p, f"terr:{t}", drawing.terr[t])
            s.set_grid(p, f"icon:{t}", drawing.icon[t])
        s.set_grid(p, "lifepod", rows_of(drawing.lifepods))
        s.set_grid(p, "meteorite", rows_of(meteorites))
        s.set_grid(p, "msym", rows_of(meteor_symbols))
        s.set_grid(p, "last_tile", rows_of(last_tile))

    def set_tracks(self, p: int, positions: Mapping[str, int]) -> None:
        """Put player p's trackers on these positions."""
        for name, pos in positions.items():
            self.state.set_track(p, TRACKS.index(name), pos)

    def set_rovers(
        self, p: int, squares: Sequence[Cell], in_supply: int | None = None
    ) -> None:
        """Put player p's rovers on these squares; its other pieces stay in supply."""
        owned = [r for r, (st, _, _) in enumerate(self.player(p)["rovers"]) if st != 0]
        total = len(owned) if in_supply is None else len(squares) + in_supply
        for r in range(8):
            self.state.set_rover(p, r, 0)
        for r in range(total):
            if r < len(squares):
                x, y = squares[r]
                self.state.set_rover(p, r, 2, x, y)
            else:
                self.state.set_rover(p, r, 1)

    def set_depot(self, p: int, small: int | None, large: int | None) -> None:
        """Put these tiles on top of player p's depot (None empties that stack)."""
        depot = self.state.facing_depot(p)
        for slot, tile in ((0, small), (1, large)):
            stack = self.state.depot_stack(depot, slot)
            if tile is None:
                self.state.set_stack_pos(stack, 12)
            else:
                self.state.set_stack_top(stack, tile)

    def start_draft(self, p: int = 0) -> None:
        """Make player p's tile decision the pending one."""
        self.state.start_draft(p)

    def start_round(self) -> None:
        """Begin a new round from the current position."""
        self.state.start_round()

    def start_stage(self, name: str) -> None:
        """Jump to a stage ("civ", "end_effects", "end_picks", "score", ...)."""
        self.state.start_stage(name)

    def give_cards(self, p: int, *cards: int) -> None:
        """Player p holds exactly these civ cards (ids)."""
        self.state.set_player_int(p, "civ_cards", sum(1 << (c - 1) for c in cards))

    def reveal_event(self, event_id: int) -> None:
        """Reveal this event card as the round's event and carry it out."""
        self.state.set_event(event_id)

    def set_objectives(
        self,
        p: int,
        private: Sequence[int] = (),
        neighbour: Sequence[int] | None = None,
    ) -> None:
        """Player p's private objective ids; optionally the neighbour cards."""
        self.state.set_objectives(p, private, neighbour)

    def give(self, p: int, *items: tuple[str, int, int, int]) -> None:
        """Give player p pending items (kind, a, b, c) and start resolving them."""
        self.state.give_items(p, list(items))


def tile_id(rules: Rules, shape: str, a: str, b: str, meteor: bool = False) -> int:
    """The id of the tile with this shape, terrains (part A, part B) and meteor flag."""
    data = rules.data
    for t in data.tiles:
        fam = data.families[t.family]
        if (
            data.shapes[t.shape].name == shape
            and (fam.a, fam.b) == (a, b)
            and t.meteor == meteor
        ):
            return t.id
    raise ValueError(f"no tile {shape} {a}/{b} meteor={meteor}")


def place_move(slot: int, o: int, x: int, y: int) -> int:
    """The move placing the depot tile in `slot` (0 small, 1 large)."""
    return (slot << 12) | (o << 8) | (y << 4) | x


def square_move(x: int, y: int) -> int:
    """The move naming square (x, y) (patches, rover placement, lifepods)."""
    return y * 12 + x


def step_move(rover: int, x: int, y: int) -> int:
    """The move sending rover index `rover` to (x, y)."""
    return (rover << 8) | (y * 12 + x)
