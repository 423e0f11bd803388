"""The fast engines list the same legal moves as the plain reference readings of the rules.

Each game has a `reference.py` beside its engine: straightforward code that reads like docs/rules/<kind>.md
and sees only the acting seat's view. Along seeded random playouts of every kind and seat count, at every
step and for every seat, the engine's `legal_actions` and the reference's are equal as sets of actions (in
JSON normal form: keys sorted, a Tarocchi discard's cards in any order) and the engine lists none twice.

Machiavelli's melds submit a whole table, so its legal moves cannot be listed (the engine lists a sample,
`complete_legal_actions = False`). There we compare what can be: the non-meld actions (draw / pass) exactly;
every meld the engine lists is legal by the reference validator; every meld of the reference's listable
kind (a new group of 3-5 hand cards, or one hand card added to one table group) is accepted by the engine's
`decide`; and on tables derived from those by moving cards around (legal or not), `decide` and the
reference validator agree.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator

import pytest

from games.engine import registry
from games.engine.chance import Chance
from games.engine.protocol import IllegalAction
from games.engine.runner import Position, begin, fold
from games.rules.diavoletto import reference as diavoletto
from games.rules.machiavelli import reference as machiavelli
from games.rules.muscio import reference as muscio
from games.rules.spite_and_malice import reference as spite_and_malice
from games.rules.tarocchi_mineo import reference as tarocchi_mineo

#: kind -> reference(view, seat, rules_version); only Tarocchi's legal moves differ between its versions.
REFERENCES: dict[str, Callable[[dict, int, int], list[dict]]] = {
    "spite-and-malice": lambda view, seat, _version: spite_and_malice.legal_actions(view, seat),
    "diavoletto": lambda view, seat, _version: diavoletto.legal_actions(view, seat),
    "muscio": lambda view, seat, _version: muscio.legal_actions(view, seat),
    "tarocchi-mineo": tarocchi_mineo.legal_actions,
}
COMPLETE = [(kind, seats, version) for kind in REFERENCES for seats in registry.get(kind).seats
            for version in registry.get(kind).rules_versions]
SEEDS = 30
POSITIONS = 6000  # per kind and seat count: enough games for every phase, within seconds


def normal(action: dict) -> str:
    """An action in normal form, to compare as sets."""
    if action.get("type") == "discard" and isinstance(action.get("cards"), list):
        action = {**action, "cards": sorted(action["cards"])}
    return json.dumps(action, sort_keys=True)


def positions(kind: str, seats: int, seed: int, max_steps: int = 3000,
              rules_version: int | None = None) -> Iterator[tuple[Position, Chance]]:
    """Every position of a seeded random playout. The seat to act picks at random among its legal actions,
    three times in four among its plays to the table when it has some (uniformly random patience players
    discard at once, run the stock dry and block the game within some fifty moves, before piles grow high),
    and with an even seed three times in four `pass` when offered (else nearly every Tarocchi deal is a
    stata, and a call with its secret partner is rare)."""
    engine = registry.get(kind, rules_version)
    chance = Chance(f"{seed + 1000:064x}")
    position, _ = begin(engine, seats, engine.normalize_options({}, seats), chance)
    rng = random.Random(seed)
    for _ in range(max_steps):
        yield position, chance
        if engine.result(position.state) is not None:
            return
        seat = rng.choice(sorted(engine.to_act(position.state)))
        actions = engine.legal_actions(position.state, seat)
        plays = [action for action in actions if action["type"] == "play"]
        passes = [action for action in actions if action["type"] == "pass"] if seed % 2 == 0 else []
        if passes and rng.random() < 0.75:
            action = passes[0]
        else:
            action = rng.choice(plays if plays and rng.random() < 0.75 else actions)
        position = fold(engine, engine.decide(position.state, seat, action, chance), position)


@pytest.mark.parametrize(("kind", "seats", "version"), COMPLETE)
def test_the_engine_lists_exactly_the_reference_moves(kind, seats, version):
    engine = registry.get(kind, version)
    reference = REFERENCES[kind]
    compared = acting = 0
    for seed in range(SEEDS):
        if compared >= POSITIONS * seats:
            break
        for position, _ in positions(kind, seats, seed, rules_version=version):
            for seat in range(seats):
                listed = [normal(action) for action in engine.legal_actions(position.state, seat)]
                expected = {normal(action) for action in reference(engine.view(position.state, seat), seat, version)}
                assert len(listed) == len(set(listed)), f"{kind}: an action listed twice"
                assert set(listed) == expected, (kind, seed, seat, sorted(set(listed) ^ expected))
                compared += 1
                acting += bool(listed)
    assert acting > 1000 and compared > acting  # real decisions, and seats not to act (both must be [])


# -- Machiavelli: what can be enumerated ---------------------------------------------------------------------

def _accepted(engine, position: Position, seat: int, table: list[list[str]], chance: Chance) -> bool:
    """Does the engine's `decide` take `table` as a legal meld (a `meld` event, not a failed operation)?"""
    action = json.loads(json.dumps({"type": "meld", "table": table}))  # a client's fresh JSON
    try:
        events = engine.decide(position.state, seat, engine.check_action_shape(action), chance)
    except IllegalAction:
        return False
    return any(event.type == "meld" for event in events)


def _shuffled_variants(table: list[list[str]], hand: list[str], rng: random.Random) -> list[list[list[str]]]:
    """Tables near `table`: a card moved to another group, two groups merged, a hand card added anywhere, a
    card left out, a group split in two. Some are legal, most are not."""
    out = []
    for _ in range(6):
        groups = [list(group) for group in table]
        change = rng.randrange(5)
        if change == 0 and len(groups) >= 2:
            source, target = rng.sample(range(len(groups)), 2)
            groups[target].append(groups[source].pop(rng.randrange(len(groups[source]))))
            groups = [group for group in groups if group]
        elif change == 1 and len(groups) >= 2:
            first, second = rng.sample(range(len(groups)), 2)
            groups[first] += groups[second]
            del groups[second]
        elif change == 2 and hand and groups:
            rng.choice(groups).append(rng.choice(hand))
        elif change == 3 and groups:
            group = rng.choice(groups)
            group.pop(rng.randrange(len(group)))
            groups = [group for group in groups if group]
        elif groups:
            group = rng.choice(groups)
            if len(group) >= 2:
                cut = rng.randrange(1, len(group))
                groups.remove(group)
                groups += [group[:cut], group[cut:]]
        out.append(groups)
    return out


@pytest.mark.parametrize("seats", list(registry.get("machiavelli").seats))
def test_machiavelli_moves_agree_with_the_reference_where_they_can_be_listed(seats):
    engine = registry.get("machiavelli")
    rng = random.Random(seats)
    listed_melds = simple = variants = legal_variants = 0
    for seed in range(4):
        for step, (position, chance) in enumerate(positions("machiavelli", seats, seed, max_steps=400)):
            state = position.state
            for seat in range(seats):
                view = engine.view(state, seat)
                actions = engine.legal_actions(state, seat)
                others = [normal(a) for a in actions if a["type"] != "meld"]
                assert others == [normal(a) for a in machiavelli.simple_actions(view, seat)]
                for action in actions:
                    if action["type"] == "meld":
                        assert machiavelli.meld_is_legal(view, [list(group) for group in action["table"]]), action
                        listed_melds += 1
                if step % 5 or seat not in engine.to_act(state):
                    continue
                candidates = machiavelli.simple_melds(view, seat)
                for table in candidates:
                    assert _accepted(engine, position, seat, table, chance), table
                    simple += 1
                for table in [*candidates[:3], [list(group) for group in view["table"]]]:
                    for variant in _shuffled_variants(table, list(view["hand"]), rng):
                        legal = machiavelli.meld_is_legal(view, variant)
                        assert _accepted(engine, position, seat, variant, chance) == legal, variant
                        variants += 1
                        legal_variants += legal
    assert listed_melds > 50 and simple > 50 and variants > 200 and 0 < legal_variants < variants
