"""Muscio and Tarocchi heuristic bots against random ones: duplicate matches in process.

    python bench/trick_bots.py [--seeds 300] [--only muscio-3 --only tarocchi-1 ...]

Every seed (same seed, same shuffles) is played once per rotation of the heuristic seats, the other seats
being uniformly random, so the cards' luck cancels out. Per match the sample is the heuristic seats' mean
score minus the random seats' mean score, per hand (Muscio: scores fall towards 0, so the difference is
oriented "random minus heuristic"; Tarocchi: per deal of the match); one paired sample per seed (the mean
over its rotations), with a 95 % t interval, and the heuristic seats' share of the match wins.

Setups: Muscio with 3, 4 and 6 players (one heuristic), Tarocchi with one heuristic and three random, and
with two heuristics (every pair of seats) and two random.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.policies import random_choice  # noqa: E402
from bots.policies.heuristic import muscio, tarocchi_mineo  # noqa: E402
from games.engine import registry  # noqa: E402
from games.engine.chance import Chance  # noqa: E402
from games.engine.runner import apply_action, begin  # noqa: E402

#: name -> (kind, seats, heuristic seat sets (rotations), options, heuristic policy)
SETUPS = {
    "muscio-3": ("muscio", 3, [(s,) for s in range(3)], {}, muscio.choose),
    "muscio-4": ("muscio", 4, [(s,) for s in range(4)], {}, muscio.choose),
    "muscio-6": ("muscio", 6, [(s,) for s in range(6)], {}, muscio.choose),
    "tarocchi-1": ("tarocchi-mineo", 4, [(s,) for s in range(4)], {"deals": 8}, tarocchi_mineo.choose),
    "tarocchi-2": ("tarocchi-mineo", 4, list(itertools.combinations(range(4), 2)), {"deals": 8},
                   tarocchi_mineo.choose),
}


def play(kind: str, seats: int, options: dict, seed: int, policies: list) -> tuple[dict, int, list[float]]:
    """One match: (result, hands or deals played, per-decision seconds of the non-random seats)."""
    engine = registry.get(kind)
    chance = Chance(f"{seed:064x}")
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(seats)]
    position, _ = begin(engine, seats, engine.normalize_options(options, seats), chance)
    times = []
    while (result := engine.result(position.state)) is None:
        seat = min(engine.to_act(position.state))
        view = engine.view(position.state, seat)
        started = time.perf_counter()
        action = policies[seat](view, seat, engine.legal_actions(position.state, seat), rngs[seat])
        if policies[seat] is not random_choice:
            times.append(time.perf_counter() - started)
        position, _ = apply_action(engine, position, seat, action, chance)
    length = result["hands"] if kind == "muscio" else result["deals_played"]
    return result, length, times


def paired_sample(kind: str, seats: int, rotations: list, options: dict, choose, seed: int,
                  times: list[float]) -> tuple[float, float]:
    """(mean over the rotations of heuristic minus random score per hand, heuristic share of the wins)."""
    diffs, wins = [], 0.0
    for ours in rotations:
        policies = [choose if seat in ours else random_choice for seat in range(seats)]
        result, length, spent = play(kind, seats, options, seed, policies)
        times.extend(spent)
        sign = -1.0 if kind == "muscio" else 1.0
        scores = [sign * result["scores"][str(seat)] for seat in range(seats)]
        mine = statistics.fmean(scores[seat] for seat in ours)
        theirs = statistics.fmean(scores[seat] for seat in range(seats) if seat not in ours)
        diffs.append((mine - theirs) / max(1, length))
        winners = result["winners"] or []
        wins += sum(1 for seat in winners if seat in ours) / max(1, len(winners)) * (1 if winners else 0)
    return statistics.fmean(diffs), wins / len(rotations)


def t_interval(samples: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(samples)
    half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples)) if len(samples) > 1 else math.inf
    return mean, half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--only", action="append", choices=sorted(SETUPS))
    args = parser.parse_args()
    for name in args.only or list(SETUPS):
        kind, seats, rotations, options, choose = SETUPS[name]
        samples, shares, times = [], [], []
        started = time.perf_counter()
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            diff, share = paired_sample(kind, seats, rotations, options, choose, seed, times)
            samples.append(diff)
            shares.append(share)
        mean, half = t_interval(samples)
        unit = "hand" if kind == "muscio" else "deal"
        even = len(rotations[0]) / seats
        times.sort()
        print(f"{name}: heuristic minus random score per {unit} {mean:+.3f} (95% ±{half:.3f}, "
              f"{len(samples)} seeds x {len(rotations)} rotations); heuristic share of wins "
              f"{statistics.fmean(shares):.1%} (even {even:.1%}); "
              f"{1000 * times[len(times) // 2]:.2f} ms/decision p50, {1000 * times[int(len(times) * .99)]:.2f} p99; "
              f"{time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
