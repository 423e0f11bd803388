"""Bot strength: duplicate matches between two policies, in process.

    python bench/bot_strength.py --kind spite-and-malice --a heuristic --b random --games 100
    python bench/bot_strength.py --kind tarocchi-mineo --a search --b heuristic --games 40 --budget-ms 50 \\
        --options '{"deals": 4}'

Every deal (a seed: the same seed gives the same shuffles) is played once per seat with A in that seat and
B in all the others, so each policy holds each seat on each deal and the luck of the cards cancels out.
`--games` is the total number of matches, rounded up to whole rotations.

Two-player games: A's win rate (a draw counts half) with a 95 % Wilson interval over the matches.
More players: per deal, A's score minus the mean score of the B seats in the same match, averaged over
A's seats (one paired sample per deal; scores oriented so that more is better), with a 95 % t interval;
also A's win share against the 1/seats it would get if A and B were equal.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.policies import POLICIES, make_policy, unknown_bot_reason  # noqa: E402
from games.engine import registry  # noqa: E402
from games.engine.chance import Chance  # noqa: E402
from games.engine.runner import apply_action, begin  # noqa: E402

#: Games whose match score falls towards a goal (lower is better).
LOWER_IS_BETTER = {"muscio"}
Z95 = statistics.NormalDist().inv_cdf(0.975)


@dataclass
class Match:
    """One match: the scores (oriented, more is better), the winners and the thinking time per policy."""

    scores: list[float]
    winners: list[int]
    seconds: dict[str, float] = field(default_factory=dict)
    moves: dict[str, int] = field(default_factory=dict)


def play(kind: str, seats: int, options: dict, seed: int, names: list[str], bot_options: dict) -> Match:
    engine = registry.get(kind)
    policies = [make_policy(name, engine, bot_options.get(name)) for name in names]
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(seats)]
    chance = Chance(f"{seed:064x}")
    position, _ = begin(engine, seats, engine.normalize_options(options, seats), chance)
    seconds = dict.fromkeys(names, 0.0)
    moves = dict.fromkeys(names, 0)
    while (result := engine.result(position.state)) is None:
        seat = min(engine.to_act(position.state))
        view = engine.view(position.state, seat)
        started = time.perf_counter()
        action = policies[seat](view, seat, engine.legal_actions(position.state, seat), rngs[seat])
        seconds[names[seat]] += time.perf_counter() - started
        moves[names[seat]] += 1
        position, _ = apply_action(engine, position, seat, action, chance)
    sign = -1.0 if kind in LOWER_IS_BETTER else 1.0
    scores = [sign * float(result["scores"][str(seat)]) for seat in range(seats)]
    return Match(scores, list(result.get("winners") or []), seconds, moves)


def _play_task(task: tuple) -> Match:
    return play(*task)


def _pool(jobs: int) -> Any:
    """Worker processes for `--jobs` above 1 (matches are independent: same results, in the same order)."""
    return multiprocessing.get_context("spawn").Pool(jobs) if jobs > 1 else contextlib.nullcontext()


def wilson(wins: float, n: int) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return centre - half, centre + half


def t_interval(samples: list[float]) -> tuple[float, float, float]:
    """Mean and 95 % interval (Student t, normal when scipy is missing)."""
    mean = statistics.fmean(samples)
    if len(samples) < 2:
        return mean, -math.inf, math.inf
    try:
        from scipy.stats import t

        quantile = float(t.ppf(0.975, len(samples) - 1))
    except ImportError:
        quantile = Z95
    half = quantile * statistics.stdev(samples) / math.sqrt(len(samples))
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", required=True, choices=registry.kinds())
    parser.add_argument("--a", default="heuristic", help="the policy measured")
    parser.add_argument("--b", default="random", help="its opponent(s)")
    parser.add_argument("--games", type=int, default=40, help="matches in all, rounded up to whole rotations")
    parser.add_argument("--seats", type=int, default=None, help="default: the fewest the game allows")
    parser.add_argument("--budget-ms", type=int, default=100, help="search bots' time per decision")
    parser.add_argument("--iterations", type=int, default=None, help="search bots: fixed rounds instead")
    parser.add_argument("--options", default="{}", help="game options as JSON, e.g. '{\"deals\": 4}'")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed")
    parser.add_argument("--jobs", type=int, default=1, help="matches played at once in worker processes "
                        "(a search bot's clock then shares the cores: prefer --iterations)")
    args = parser.parse_args()

    engine = registry.get(args.kind)
    seats = args.seats or engine.seats.start
    if seats not in engine.seats:
        parser.error(f"{args.kind} takes {engine.seats.start}-{engine.seats.stop - 1} seats")
    for name in (args.a, args.b):
        if reason := unknown_bot_reason(name, args.kind):
            parser.error(reason)
    options = json.loads(args.options)
    search_options = {"iterations": args.iterations} if args.iterations else {"budget_ms": args.budget_ms}
    bot_options = {name: search_options for name in (args.a, args.b) if POLICIES[name].options}
    deals = max(1, math.ceil(args.games / seats))

    per_deal: list[float] = []
    a_wins = 0.0
    matches = 0
    seconds = {args.a: 0.0, args.b: 0.0}
    moves = {args.a: 0, args.b: 0}
    started = time.perf_counter()
    tasks = [(args.kind, seats, options, args.seed + deal, [args.a if seat == a_seat else args.b
                                                           for seat in range(seats)], bot_options)
             for deal in range(deals) for a_seat in range(seats)]
    with tqdm(total=len(tasks), desc=f"{args.kind} {args.a} vs {args.b}", unit="match") as bar, \
            _pool(args.jobs) as pool:
        results = pool.imap(_play_task, tasks) if pool else map(_play_task, tasks)
        diffs: list[float] = []
        for number, match in enumerate(results):
            a_seat = number % seats
            names = tasks[number][4]
            others = [score for seat, score in enumerate(match.scores) if seat != a_seat]
            diffs.append(match.scores[a_seat] - statistics.fmean(others))
            if a_seat in match.winners:
                a_wins += 1 / len(match.winners)
            elif not match.winners:
                a_wins += 1 / seats
            matches += 1
            for name in set(names):
                seconds[name] += match.seconds[name]
                moves[name] += match.moves[name]
            bar.update()
            if a_seat == seats - 1:
                per_deal.append(statistics.fmean(diffs))
                diffs = []
    elapsed = time.perf_counter() - started

    budget = (f"iterations {args.iterations}" if args.iterations else f"budget {args.budget_ms} ms") \
        if bot_options else "no search"
    think = ", ".join(f"{name} {1000 * seconds[name] / max(1, moves[name]):.1f} ms/move" for name in seconds)
    jobs = f", {args.jobs} jobs" if args.jobs > 1 else ""
    print(f"{args.kind}: {args.a} (A) vs {args.b} (B), {seats} seats, {matches} matches on {deals} deals, "
          f"seeds {args.seed}..{args.seed + deals - 1}, options {options or 'default'}, {budget}; {think}; "
          f"{elapsed:.0f} s{jobs}")
    mean, low, high = t_interval(per_deal)
    if seats == 2:
        low_w, high_w = wilson(a_wins, matches)
        print(f"  A win rate {a_wins / matches:.1%}  (95% Wilson {low_w:.1%} .. {high_w:.1%}), "
              f"A score minus B score per match {mean:+.2f} (95% {low:+.2f} .. {high:+.2f})")
    else:
        print(f"  A score minus mean B score {mean:+.2f}  (95% t interval {low:+.2f} .. {high:+.2f}, "
              f"{len(per_deal)} paired deals), A win share {a_wins / matches:.1%} (even: {1 / seats:.1%})")


if __name__ == "__main__":
    main()
