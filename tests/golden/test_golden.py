"""Replay every golden log through the engine and compare it exactly (see `tests/golden/logs.py`).

A failure means a game now does something else than when its log was recorded: a stored game of that kind and
rules version would no longer replay as it was played. Either the change is a mistake, or it belongs in a new
rules version (docs/rules-versions.md) and the logs of the new version are recorded with
`python -m tests.golden.record`.
"""

from __future__ import annotations

import pytest

from games.engine.runner import Position, begin, chance_for, fold
from tests.golden import logs

CONFIGURATIONS = list(logs.configurations())


def _replay(engine, seats: int, game: dict) -> None:
    seed = game["seed"]
    position, events = begin(engine, seats, game["options"], chance_for(seed, Position(None, 0, 0)))
    assert [logs.event_json(event) for event in events] == game["start"], "set-up events differ"
    position = fold(engine, [logs.event_from_json(row) for row in game["start"]])
    digests = logs.TableDigests()
    for number, (seat, action, stored, digest) in enumerate(game["steps"]):
        assert engine.result(position.state) is None, f"step {number}: the game is over too early"
        record = logs.table_record(engine, position, seats, seat)
        exact = game["exact"].get(str(number))
        if exact is not None:
            assert logs.as_json(record) == exact, f"step {number}: the table differs from the recorded one"
        assert digests.add(record) == digest, f"step {number}: legal actions or a view differ (digest)"
        caused = engine.decide(position.state, seat, engine.check_action_shape(action), chance_for(seed, position))
        assert [logs.event_json(event) for event in caused] == stored, f"step {number}: the events differ"
        position = fold(engine, [logs.event_from_json(row) for row in stored], position)
    digests.add(logs.table_record(engine, position, seats, None))
    assert digests.total() == game["tables"], "a table differs (the digest of all tables)"
    assert logs.as_json(engine.result(position.state)) == game["result"], "result differs"


@pytest.mark.parametrize(("kind", "version", "seats"), CONFIGURATIONS,
                         ids=[f"{kind}-v{version}-{seats}p" for kind, version, seats in CONFIGURATIONS])
def test_golden_logs_replay_exactly(kind: str, version: int, seats: int) -> None:
    path = logs.fixture_path(kind, version, seats)
    assert path.exists(), f"no golden log {path}: record it with python -m tests.golden.record"
    document = logs.load(path)
    assert (document["format"], document["kind"], document["rules_version"], document["seats"]) == (
        logs.FORMAT, kind, version, seats)
    assert len(document["games"]) >= logs.GAMES
    engine = logs.engine_versions(kind)[version]
    for number, game in enumerate(document["games"]):
        try:
            _replay(engine, seats, game)
        except AssertionError as error:
            raise AssertionError(f"{kind} v{version} {seats} seats, game {number} (seed {game['seed']}): "
                                 f"{error}") from None
