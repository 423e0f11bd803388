"""Golden logs: seeded random games recorded once and replayed by the suite, so that any change to what a game
does (its events, what each seat sees, its legal actions, its result) fails a test until the logs are
recorded again on purpose (`python -m tests.golden.record`).

One fixture per kind, rules version and seat count: `tests/golden/<kind>/v<N>/<seats>p.json.xz`, a JSON
document compressed with the standard library's lzma. Each game holds its seed, options and set-up events, and
one entry per step:

    [seat, action, events, digest]

`events` are the events the action caused, exactly as stored (JSON); `digest` is the first 4 hex digits of
the SHA-256 of what the table showed before the action (`table_record`: who is to act, the acting seat's legal
actions, every seat's view and the spectator's), enough to say at which step a replay departs. The game's
`tables` digest is the SHA-256 of all those records in turn and of the final table, so no difference goes
unseen. The full record, not only its digest, is kept for a few steps of every game and for every step of some
(`exact`), so that a failing digest can be read against a whole view. Digests rather than views keep the files
small (a few MB for every kind). The replay
(`test_golden.py`) plays each game again through the platform's runner, folding the stored events, and compares
all of it exactly.
"""

from __future__ import annotations

import hashlib
import lzma
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from games.engine import registry
from games.engine.protocol import Engine, Event
from games.engine.runner import Position, begin, chance_for, fold

ROOT = Path(__file__).resolve().parent
#: Fixture format; a change of it goes with recording every log again.
FORMAT = 1
GAMES = 200
#: One game in `EXACT_EVERY` keeps the record of every step, the others that of the steps in `EXACT_STEPS`.
EXACT_EVERY = 100
EXACT_STEPS = (1, 40)

#: Options the games are played with, cycled over the games of a file: short matches, so that a few hundred
#: games of every kind and seat count replay within the suite's time, and each kind's main options are met.
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "spite-and-malice": [{}, {}, {}, {"target": 3}],
    "diavoletto": [{}, {}, {}, {"target": 3}],
    "tarocchi-mineo": [{"deals": 4}],
    "machiavelli": [{"deals": 1}, {"deals": 1, "failed_operation": "reject"}],
    "muscio": [{"max_hands": 2}, {"max_hands": 1}],
}


def engine_versions(kind: str) -> dict[int, Engine]:
    """Every rules version of `kind` the engine folds, with the engine that plays it."""
    return {version: registry.get(kind, version) for version in registry.get(kind).rules_versions}


def fixture_path(kind: str, version: int, seats: int) -> Path:
    return ROOT / kind / f"v{version}" / f"{seats}p.json.xz"


def configurations() -> Iterator[tuple[str, int, int]]:
    """(kind, rules version, seat count) of every fixture."""
    for kind in registry.kinds():
        for version, engine in engine_versions(kind).items():
            for seats in engine.seats:
                yield kind, version, seats


#: orjson writes the same JSON as the standard library (keys sorted, no spaces) ten times faster: the replay
#: writes every view of every step.
_JSON_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def as_json(value: Any) -> Any:
    """`value` as it reads back from JSON (tuples become lists, read-only dicts plain ones)."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


def event_json(event: Event) -> list:
    """An event as the fixture stores it: [type, data, public, visible_to (sorted) or None, actor]."""
    visible = None if event.visible_to is None else sorted(event.visible_to)
    return as_json([event.type, event.data, event.public, visible, event.actor])


def event_from_json(row: list) -> Event:
    type_, data, public, visible, actor = row
    return Event(type_, data, public, None if visible is None else frozenset(visible), actor)


def table_record(engine: Engine, position: Position, seats: int, seat: int | None) -> list:
    """What the table shows before a step (or at the end, `seat` None): who is to act, the acting seat's legal
    actions, each seat's view and the spectator's."""
    state = position.state
    legal = engine.legal_actions(state, seat) if seat is not None else None
    views = [engine.view(state, viewer) for viewer in (*range(seats), None)]
    return [sorted(engine.to_act(state)), legal, views]


class TableDigests:
    """The digests of the tables of one game: each record's own (short) and all of them together."""

    def __init__(self) -> None:
        self._all = hashlib.sha256()

    def add(self, record: list) -> str:
        text = orjson.dumps(record, option=_JSON_OPTIONS)
        self._all.update(text)
        return hashlib.sha256(text).hexdigest()[:4]

    def total(self) -> str:
        return self._all.hexdigest()


def game_seed(kind: str, version: int, seats: int, number: int) -> str:
    return hashlib.sha256(f"golden:{kind}:v{version}:{seats}:{number}".encode()).hexdigest()


def play_game(engine: Engine, kind: str, version: int, seats: int, number: int) -> dict[str, Any]:
    """One seeded game of random legal actions, recorded as the fixture keeps it."""
    options_list = OPTIONS[kind]
    options = engine.normalize_options(options_list[number % len(options_list)], seats)
    seed = game_seed(kind, version, seats, number)
    policy = random.Random(seed)
    exact = number % EXACT_EVERY == 0
    digests = TableDigests()
    position, events = begin(engine, seats, options, chance_for(seed, Position(None, 0, 0)))
    steps: list[list] = []
    samples: dict[str, list] = {}
    while engine.result(position.state) is None:
        seat = min(engine.to_act(position.state))
        record = table_record(engine, position, seats, seat)
        if exact or len(steps) in EXACT_STEPS:
            samples[str(len(steps))] = as_json(record)
        action = as_json(record[1][policy.randrange(len(record[1]))])
        caused = engine.decide(position.state, seat, action, chance_for(seed, position))
        steps.append([seat, action, [event_json(event) for event in caused], digests.add(record)])
        position = fold(engine, [event_from_json(row) for row in steps[-1][2]], position)
    digests.add(table_record(engine, position, seats, None))
    return {
        "seed": seed, "options": options, "start": [event_json(event) for event in events], "steps": steps,
        "tables": digests.total(), "result": as_json(engine.result(position.state)), "exact": samples,
    }


def save(path: Path, document: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(lzma.compress(orjson.dumps(document), preset=9 | lzma.PRESET_EXTREME))


def load(path: Path) -> dict[str, Any]:
    return orjson.loads(lzma.decompress(path.read_bytes()))
