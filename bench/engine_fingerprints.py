"""Fingerprints of seeded random playouts, to check that a change to an engine's code changes nothing it does.

    python bench/engine_fingerprints.py [--games 200] [--kinds muscio ...] > before.txt
    ... change an engine ...
    python bench/engine_fingerprints.py [--games 200] [--kinds muscio ...] | diff before.txt -

For every kind and seat count, `games` playouts (game n seeded by n, actions drawn by `random.Random(n)`)
are hashed step by step: every event (type, data, public side, audience, actor), every seat's and a
spectator's view after each step (JSON, key order included), every seat's legal actions, who is to act, and
the result. One action in five is handed to `decide` as a plain dict copy (the path of an action that comes
over the wire), the others to `decide_listed` as listed. One line per case: kind, seats, steps, SHA-256.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import registry  # noqa: E402
from games.engine.chance import Chance  # noqa: E402
from games.engine.runner import begin, fold  # noqa: E402


def _dump(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":"), default=sorted).encode()


def _event_bytes(event) -> bytes:
    audience = None if event.visible_to is None else sorted(event.visible_to)
    return _dump([event.type, event.data, event.public, audience, event.actor])


def fingerprint(kind: str, seats: int, games: int) -> tuple[int, str]:
    """(steps played, SHA-256 of everything seen) over `games` seeded playouts."""
    engine = registry.get(kind)
    options = engine.normalize_options({}, seats)
    digest = hashlib.sha256()
    steps = 0
    viewers = [*range(seats), None]
    for game in range(games):
        chance = Chance(f"{game:064x}")
        rng = random.Random(game)
        position, events = begin(engine, seats, options, chance)
        for event in events:
            digest.update(_event_bytes(event))
        while True:
            state = position.state
            for viewer in viewers:
                digest.update(_dump(engine.view(state, viewer)))
            result = engine.result(state)
            if result is not None:
                digest.update(_dump(result))
                break
            to_act = sorted(engine.to_act(state))
            digest.update(_dump(to_act))
            listed = {}
            for seat in range(seats):
                listed[seat] = engine.legal_actions(state, seat)
                digest.update(_dump(listed[seat]))
            seat = to_act[rng.randrange(len(to_act))]
            action = listed[seat][rng.randrange(len(listed[seat]))]
            if rng.randrange(5) == 0:
                events = engine.decide(state, seat, json.loads(json.dumps(action)), chance)
            else:
                events = engine.decide_listed(state, seat, action, chance)
            for event in events:
                digest.update(_event_bytes(event))
            position = fold(engine, events, position)
            steps += 1
    return steps, digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--kinds", nargs="*", default=registry.kinds())
    args = parser.parse_args()
    for kind in args.kinds:
        for seats in registry.get(kind).seats:
            steps, digest = fingerprint(kind, seats, args.games)
            print(f"{kind} {seats} {steps} {digest}", flush=True)


if __name__ == "__main__":
    main()
