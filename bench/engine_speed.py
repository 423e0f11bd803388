"""Engine speed: random playouts of every registered game, a view computed after every step, measured
side by side with RLCard's UNO (`env.run`, which encodes the state at every step) in the same run.

    pip install -e ".[bench]" && python bench/engine_speed.py [--seconds 3] [--rounds 3]

Every measurement of ours follows one of RLCard's (ABAB...), so machine noise hits both. The table prints
the medians of the rounds and the ratio of our median to the median of all RLCard's measurements (target: at
least 2 for every game); beside it, the lowest ratio of one of our measurements to the RLCard measurement
just before it, which shows how far the noise of a shared machine reaches.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import registry  # noqa: E402
from games.engine.chance import Chance  # noqa: E402
from games.engine.runner import begin, fold  # noqa: E402


def _our_games(kind: str, seats: int) -> Iterator[int]:
    """Random playouts of `kind` (game n seeded by n), a view of the acting seat after every step: yields
    the steps of each game."""
    engine = registry.get(kind)
    options = engine.normalize_options({}, seats)
    rng = random.Random(0)
    for game in itertools.count():
        chance = Chance(f"{game:064x}")
        position, _ = begin(engine, seats, options, chance)
        state = position.state
        steps = 0
        while engine.result(state) is None:
            seat = min(engine.to_act(state))
            actions = engine.legal_actions(state, seat)
            events = engine.decide_listed(state, seat, actions[rng.randrange(len(actions))], chance)
            position = fold(engine, events, position)
            state = position.state
            engine.view(state, seat)
            steps += 1
        yield steps


def _uno_games() -> Iterator[int]:
    """RLCard's UNO played by its random agents (`env.run` encodes the state at every step): yields the
    steps of each game."""
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    while True:
        trajectories, _ = env.run(is_training=False)
        yield sum((len(t) - 1) // 2 for t in trajectories)


def _timed(games: Iterator[int], seconds: float) -> tuple[float, float]:
    """(steps/s, games/s) of the games played in `seconds`."""
    steps = played = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        steps += next(games)
        played += 1
    elapsed = time.perf_counter() - started
    return steps / elapsed, played / elapsed


def ours(kind: str, seats: int, seconds: float) -> tuple[float, float]:
    return _timed(_our_games(kind, seats), seconds)


def rlcard_uno(seconds: float) -> tuple[float, float]:
    return _timed(_uno_games(), seconds)


def play_ours(kind: str, seats: int, games: int) -> int:
    """The steps of the first `games` games (for instruction counts)."""
    return sum(itertools.islice(_our_games(kind, seats), games))


def play_uno(games: int) -> int:
    return sum(itertools.islice(_uno_games(), games))


def cases(kinds: list[str] | None = None) -> list[tuple[str, int]]:
    """(kind, seats) measured: each game at its fewest seats and at min(4, most)."""
    return [(kind, seats) for kind in kinds or registry.kinds()
            for seats in sorted({registry.get(kind).seats.start, min(4, registry.get(kind).seats[-1])})]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kinds", nargs="*", default=registry.kinds())
    args = parser.parse_args()
    try:
        import rlcard  # noqa: F401
    except ImportError:
        sys.exit('RLCard is missing: pip install -e ".[bench]"')

    measured_cases = cases(args.kinds)
    peer: list[float] = []
    # per case, one (steps/s, games/s, ratio to the UNO measurement just before) per round
    measured: dict[tuple[str, int], list[tuple[float, float, float]]] = {case: [] for case in measured_cases}
    rlcard_uno(min(args.seconds, 1.0))  # warm-up, not counted: RLCard's first game loads its modules
    for _ in range(args.rounds):
        for case in measured_cases:
            peer.append(rlcard_uno(args.seconds)[0])
            steps, games = ours(*case, args.seconds)
            measured[case].append((steps, games, steps / peer[-1]))
    uno = statistics.median(peer)
    print(f"python {sys.version.split()[0]}, cpus {os.cpu_count()}, {args.rounds} rounds x {args.seconds}s, "
          f"median of rounds; RLCard uno: {uno:,.0f} steps/s (min {min(peer):,.0f}, max {max(peer):,.0f})")
    print(f"{'game':<20}{'seats':>6}{'steps/s':>12}{'games/s':>10}{'ratio vs uno':>14}{'lowest':>8}")
    for (kind, seats), rows in measured.items():
        steps, games, paired = zip(*rows, strict=True)
        median = statistics.median(steps)
        print(f"{kind:<20}{seats:>6}{median:>12,.0f}{statistics.median(games):>10,.1f}{median / uno:>14.2f}"
              f"{min(paired):>8.2f}")


if __name__ == "__main__":
    main()
