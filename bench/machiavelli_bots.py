"""Machiavelli bots: the exact meld solver's speed on real mid-game positions, and the heuristic's strength.

    python bench/machiavelli_bots.py [--deals 100] [--four 40]

1. Solver time per position (p50 / p99 / max) over every decision of self-play deals, 2 and 4 players,
   with the table and hand sizes seen: `best_meld` on the positions of the greedy rule (lay down the most
   cards every turn: typical mid-game tables, small hands) and of the heuristic (which holds its cards:
   big hands), and `closing_meld`, which the heuristic calls while the stock lasts.
2. 2 players, duplicate: every deal (a one-deal match) is played twice from the same seed with the seats
   swapped; the first bot's share of the deals won (a draw counts half) and its mean score per deal.
3. 4 players, one bot against three of the other: each deal played four times, the first bot in every seat;
   the mean of (its score − the mean score of the three others).

Pairs: heuristic vs random, greedy vs random, heuristic vs greedy.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.policies import random_choice  # noqa: E402
from bots.policies.heuristic import machiavelli as heuristic  # noqa: E402
from bots.policies.machiavelli_solver import best_meld, closing_meld  # noqa: E402
from games.engine.chance import Chance  # noqa: E402
from games.engine.runner import apply_action, begin  # noqa: E402
from games.rules.machiavelli import ENGINE  # noqa: E402

Policy = Callable


def play_deal(policies: list[Policy], seed: int, on_decision: Callable | None = None) -> list[float]:
    """One single-deal match with `policies[seat]`; returns the scores per seat."""
    seats = len(policies)
    options = ENGINE.normalize_options({"deals": 1}, seats)
    chance = Chance(f"{seed:064x}")
    rng = random.Random(seed)
    position, _ = begin(ENGINE, seats, options, chance)
    while (result := ENGINE.result(position.state)) is None:
        seat = min(ENGINE.to_act(position.state))
        view = ENGINE.view(position.state, seat)
        if on_decision is not None:
            on_decision(view)
        action = policies[seat](view, seat, ENGINE.legal_actions(position.state, seat), rng)
        position, events = apply_action(ENGINE, position, seat, action, chance)
        if policies[seat] is heuristic.choose:
            assert events[0].type != "meld_failed", "the heuristic sent an invalid arrangement"
    return [float(result["scores"][str(s)]) for s in range(seats)]


def greedy(view: dict, seat: int, legal_actions: list, rng: random.Random) -> dict:
    """The rule the heuristic is measured against: lay down the most cards every turn, else draw."""
    if view["opening"]:
        return legal_actions[0]
    return heuristic.best_lay_down(view, legal_actions) or legal_actions[0]


def solver_times(deals: int) -> None:
    for name, policy, solve in (("greedy", greedy, best_meld), ("heuristic", heuristic.choose, best_meld),
                                ("heuristic", heuristic.choose, closing_meld)):
        positions = []

        def keep(view: dict, positions: list = positions) -> None:
            if not view["opening"]:
                positions.append((view["table"], view["hand"]))

        for seats in (2, 4):
            for seed in range(deals):
                play_deal([policy] * seats, 10_000 + seed, keep)
        times = []
        for table, hand in positions:
            started = time.perf_counter()
            solve(table, hand)
            times.append(time.perf_counter() - started)
        times.sort()
        tables = sorted(sum(map(len, t)) for t, _ in positions)
        hands = sorted(len(h) for _, h in positions)
        print(f"{solve.__name__} on {len(times)} positions of {name} self-play (2 and 4 players; table cards p50 "
              f"{tables[len(tables) // 2]} max {tables[-1]}, hand p50 {hands[len(hands) // 2]} max {hands[-1]}): "
              f"p50 {1000 * times[len(times) // 2]:.1f} ms, p99 {1000 * times[int(len(times) * 0.99)]:.1f} ms, "
              f"max {1000 * times[-1]:.1f} ms")


def duplicate_two(deals: int, ours: Policy, theirs: Policy) -> tuple[float, float]:
    """(share of deals won by `ours`, its mean score per deal), each seed played with the seats swapped."""
    won, scores = 0.0, []
    for seed in range(deals // 2 + deals % 2):
        for seat in (0, 1):
            policies = [theirs, theirs]
            policies[seat] = ours
            result = play_deal(policies, seed)
            mine, other = result[seat], result[1 - seat]
            won += 1.0 if mine > other else 0.5 if mine == other else 0.0
            scores.append(mine)
    return won / len(scores), statistics.fmean(scores)


def rotated_four(deals: int, ours: Policy, theirs: Policy) -> float:
    """Mean over deals and seats of `ours`' score minus the mean score of the three others."""
    diffs = []
    for seed in range(deals):
        for seat in range(4):
            policies = [theirs] * 4
            policies[seat] = ours
            result = play_deal(policies, 50_000 + seed)
            others = [score for s, score in enumerate(result) if s != seat]
            diffs.append(result[seat] - statistics.fmean(others))
    return statistics.fmean(diffs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=100, help="2-player deals (half as many seeds)")
    parser.add_argument("--four", type=int, default=40, help="4-player seeds (each played 4 times)")
    parser.add_argument("--timing-deals", type=int, default=10, help="self-play deals per seat count for timing")
    args = parser.parse_args()
    solver_times(args.timing_deals)
    for ours, theirs, name in ((heuristic.choose, random_choice, "heuristic vs random"),
                               (greedy, random_choice, "greedy vs random"),
                               (heuristic.choose, greedy, "heuristic vs greedy")):
        started = time.perf_counter()
        rate, mean = duplicate_two(args.deals, ours, theirs)
        print(f"{name}, 2 players, duplicate, {args.deals} deals: wins {100 * rate:.1f} %, "
              f"mean score per deal {mean:+.2f} ({time.perf_counter() - started:.0f} s)")
        started = time.perf_counter()
        diff = rotated_four(args.four, ours, theirs)
        print(f"{name}, 4 players (1 vs 3), {4 * args.four} deals (each seed in every seat): "
              f"mean score − mean of the others {diff:+.2f} ({time.perf_counter() - started:.0f} s)")

if __name__ == "__main__":
    main()
