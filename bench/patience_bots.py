"""Spite and Malice and Diavoletto heuristic bots: their strength against random, and their time per move.

    python bench/patience_bots.py [--seeds 200] [--kind spite-and-malice --kind diavoletto]

Duplicate: every seed (a single game) is played twice, the heuristic in seat 0 then in seat 1, against the
uniformly random bot. Printed per game: the heuristic's share of games won (a draw is not a win; a blocked
game goes to the player with fewer goal cards left), draws, losses, how games ended, the mean goal cards
each side had left, and the heuristic's decision time (p50 / p99). Target: at least 80 % won.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.policies import random_choice  # noqa: E402
from bots.policies.heuristic import diavoletto, spite_and_malice  # noqa: E402
from games.engine import registry  # noqa: E402
from games.engine.chance import Chance  # noqa: E402
from games.engine.runner import apply_action, begin  # noqa: E402

HEURISTIC = {"spite-and-malice": spite_and_malice.choose, "diavoletto": diavoletto.choose}


def play(kind: str, policies: list, seed: int, times: list[float]) -> dict:
    """One game with `policies[seat]`; the heuristic's decision times go to `times`."""
    engine = registry.get(kind)
    chance = Chance(f"{seed:064x}")
    rng = random.Random(seed)
    position, _ = begin(engine, 2, engine.normalize_options({}, 2), chance)
    while (result := engine.result(position.state)) is None:
        seat = min(engine.to_act(position.state))
        view = engine.view(position.state, seat)
        legal = engine.legal_actions(position.state, seat)
        started = time.perf_counter()
        action = policies[seat](view, seat, legal, rng)
        if policies[seat] is not random_choice:
            times.append(time.perf_counter() - started)
        position, _ = apply_action(engine, position, seat, action, chance)
    left = [len(goal) for goal in position.state.goals]
    return {**result, "left": left}


def duplicate(kind: str, seeds: int) -> None:
    ours = HEURISTIC[kind]
    outcome: Counter = Counter()
    endings: Counter = Counter()
    mine_left, theirs_left, times = [], [], []
    started = time.perf_counter()
    for seed in range(seeds):
        for seat in (0, 1):
            policies = [random_choice, random_choice]
            policies[seat] = ours
            result = play(kind, policies, seed, times)
            winner = result["winner"]
            outcome["won" if winner == seat else "draw" if winner is None else "lost"] += 1
            endings[result["reason"]] += 1
            mine_left.append(result["left"][seat])
            theirs_left.append(result["left"][1 - seat])
    games = 2 * seeds
    times.sort()
    print(f"{kind}: heuristic vs random, duplicate, {games} games ({seeds} seeds x 2 seats), "
          f"{time.perf_counter() - started:.0f} s")
    print(f"  won {100 * outcome['won'] / games:.1f} %, draws {100 * outcome['draw'] / games:.1f} %, "
          f"lost {100 * outcome['lost'] / games:.1f} %; endings {dict(endings)}")
    print(f"  goal cards left: heuristic {statistics.fmean(mine_left):.1f}, random {statistics.fmean(theirs_left):.1f}")
    print(f"  decision time: p50 {1000 * times[len(times) // 2]:.2f} ms, "
          f"p99 {1000 * times[int(len(times) * 0.99)]:.2f} ms, max {1000 * times[-1]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=200, help="seeds per game, each played with seats swapped")
    parser.add_argument("--kind", action="append", choices=sorted(HEURISTIC))
    args = parser.parse_args()
    for kind in args.kind or sorted(HEURISTIC, reverse=True):
        duplicate(kind, args.seeds)


if __name__ == "__main__":
    main()
