"""``pu-sim list``: what the table flags accept, with keys and display names."""

from __future__ import annotations

from collections.abc import Iterator

from pu_sim.bots import BOT_KINDS, POLICY_PARAMS, PRESET_KINDS, PRESETS, SEARCH_PARAMS
from pu_sim.rules import RuleOptions, load_game_data

BOT_TEXT = {
    "random": "a uniformly random legal move (the floor)",
    "greedy": "weighted immediate features (fast; weak)",
    "search": "greedy's best moves judged by rollouts (slow; strongest)",
    "greedy_tuned": "greedy with tuned weights and depot lookaheads",
    "greedy_learned": "greedy_tuned with learned values and endgame rollouts",
    "policy": "values learned by self-play judge each move's afterstate",
    "policy_td": "the policy's committed network (another family; weak solo so far)",
}


def lines(what: str) -> Iterator[str]:
    """The listing of one section, or of all of them."""
    sections = {
        "corporations": _corporations, "planets": _planets, "bots": _bots,
        "presets": _presets, "options": _options,
    }  # fmt: skip
    chosen = list(sections) if what == "all" else [what]
    for i, name in enumerate(chosen):
        if i:
            yield ""
        yield from sections[name]()


def _boards(title: str, items: list[tuple[str, str]]) -> Iterator[str]:
    yield f"{title} (key, then display name; either works, 'random' draws one):"
    width = max(len(k) for k, _ in items)
    for key, name in items:
        yield f"  {key:<{width}}  {name}"


def _corporations() -> Iterator[str]:
    data = load_game_data()
    yield from _boards("corporations", [(c.key, c.name) for c in data.corporations])


def _planets() -> Iterator[str]:
    data = load_game_data()
    yield from _boards("planets", [(p.key, p.name) for p in data.planets])


def _bots() -> Iterator[str]:
    yield "bots (settings after colons, e.g. search:budget=64:width=2):"
    width = max(map(len, (*BOT_KINDS, *PRESETS)))
    for name in (*BOT_KINDS, *PRESETS):
        text = BOT_TEXT.get(name, "a greedy preset")
        preset = " (weights: `pu-sim list presets`)" if name in PRESETS else ""
        yield f"  {name:<{width}} {text}{preset}"
    settings = ", ".join(f"{k}={d:g}" for k, (_, d) in SEARCH_PARAMS.items())
    policy = ", ".join(f"{k}={d:g}" for k, (_, d) in POLICY_PARAMS.items())
    yield f"  search settings: {settings}; greedy settings: any greedy weight"
    yield f"  policy settings: {policy}"


def _presets() -> Iterator[str]:
    yield "presets (greedy weights; unnamed ones keep greedy's defaults):"
    for name, weights in PRESETS.items():
        shown = ", ".join(f"{k}={v:g}" for k, v in weights.items())
        kind = PRESET_KINDS.get(name)
        yield f"  {name}: {f'{kind} bot, ' if kind else ''}{shown}"


def _options() -> Iterator[str]:
    yield "rule options (--option NAME=VALUE; docs/rules-decisions.md explains each):"
    for name, choice in RuleOptions.choices().items():
        values = " | ".join(
            [_spell(v) for v in choice.values] + ([choice.form] if choice.form else [])
        )
        yield f"  {name}: {values} (default {_spell(choice.default)})"
        yield f"      {RuleOptions.describe(name)}"


def _spell(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)
