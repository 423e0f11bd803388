"""Snapshots are documented JSON (docs/snapshots.md): every position of every kind and seat count survives the
round trip exactly, and nothing that is not such a document (an old pickle above all) is ever loaded."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from games.engine import registry, snapshot
from games.engine.chance import Chance
from games.engine.runner import Position, begin, fold

CASES = [(kind, seats) for kind in registry.kinds() for seats in registry.get(kind).seats]


def _positions(kind: str, seats: int, seed: int, every: int = 7, max_steps: int = 4000):
    """Positions along a seeded random playout, every `every` actions, and the last one."""
    engine = registry.get(kind)
    chance = Chance(f"{seed:064x}")
    position, _ = begin(engine, seats, engine.normalize_options({}, seats), chance)
    rng = random.Random(seed)
    steps = 0
    yield position
    while engine.result(position.state) is None and steps < max_steps:
        seat = rng.choice(sorted(engine.to_act(position.state)))
        action = rng.choice(engine.legal_actions(position.state, seat))
        position = fold(engine, engine.decide(position.state, seat, action, chance), position)
        steps += 1
        if steps % every == 0:
            yield position
    yield position


def _answers(engine, position: Position, seats: int):
    """Everything a reader asks of a position: whose turn, result, every seat's view and legal actions."""
    state = position.state
    return (engine.to_act(state), engine.result(state), engine.view(state, None),
            [(engine.view(state, seat), engine.legal_actions(state, seat)) for seat in range(seats)],
            sorted(engine.all_cards(state)))


@pytest.mark.parametrize(("kind", "seats"), CASES)
def test_every_position_round_trips_through_json(kind, seats):
    engine = registry.get(kind)
    checked = 0
    for seed in range(3):
        for position in _positions(kind, seats, seed):
            stored = snapshot.to_bytes(engine, position)
            document = json.loads(stored)
            assert document["format"] == "tavolo-snapshot" and document["format_version"] == 1
            assert document["kind"] == kind and document["state_version"] == engine.state_version
            back = snapshot.from_bytes(engine, stored)
            assert back == position
            assert _answers(engine, back, seats) == _answers(engine, position, seats)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("kind", registry.kinds())
def test_the_state_type_is_what_evolve_returns(kind):
    engine = registry.get(kind)
    position = next(_positions(kind, engine.seats.start, 0))
    assert isinstance(position.state, snapshot.state_type(engine))


_unpickled: list[str] = []


def _record_unpickling(tag: str) -> str:
    _unpickled.append(tag)
    return tag


class _Trap:
    """A pickle that records it was loaded: the codec must refuse it without running it."""

    def __reduce__(self):
        return _record_unpickling, ("loaded",)


@pytest.mark.parametrize("payload", [pickle.dumps(_Trap()), b"not json", b"{}", b"[1, 2]",
                                     json.dumps({"format": "tavolo-snapshot", "format_version": 2}).encode()])
def test_anything_else_is_refused_and_never_unpickled(payload):
    engine = registry.get("muscio")
    with pytest.raises(snapshot.SnapshotError):
        snapshot.from_bytes(engine, payload)
    assert _unpickled == []


def test_a_snapshot_of_another_kind_or_state_version_or_layout_is_refused():
    engine = registry.get("spite-and-malice")
    position = next(_positions("spite-and-malice", 2, 1))
    document = snapshot.dump(engine, position)
    for changed in ({"kind": "diavoletto"}, {"state_version": engine.state_version + 1}):
        with pytest.raises(snapshot.SnapshotError):
            snapshot.load(engine, {**document, **changed})
    renamed = json.loads(json.dumps(document))
    renamed["state"]["turn"]["player"] = renamed["state"]["turn"].pop("current")  # a field renamed since
    with pytest.raises(snapshot.SnapshotError):
        snapshot.load(engine, renamed)
