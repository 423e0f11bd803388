"""The search bot: information-set Monte Carlo over determinisations of what its seat cannot see.

For each decision it draws full states consistent with its view (`engine.sample_state`; it never sees
the true state) and, on each of them, plays every candidate move followed by a rollout to the end of the
current deal, or a shorter horizon where deals are long (the two patiences: the end of the opponent's
next turn). Rollouts are played by the game's heuristic bot (in Tarocchi, except for a bid, a one-glance
card play, the heuristic being too dear to run thousands of times: `bots.policies.rollouts`), and scored by the seat's
gain in the deal against the others' mean, or an estimate from the public view when cut
(`bots.policies.deals`). Where even that costs too much (Machiavelli while the stock lasts) the
heuristic's move is played as it is.

Flat Monte Carlo with common random numbers: within one round every candidate meets the same sampled
state and the same rollout seed, so the comparison between candidates is paired and much less noisy
than independent samples. After rounds 1, 2, 4, 8... the worse half of the candidates is dropped
(successive halving), so the time goes to the moves still in question. Only complete rounds count.
The heuristic's own move is always a candidate and stays the answer unless another move beat it clearly
(a lower confidence bound on the paired difference, `_pick`): with too little time the bot plays like the
heuristic, and with more it deviates only where the rollouts say so.

Options: `budget_ms` (wall-clock time per decision, read between rollouts and every few actions inside
one) or, in process only, `iterations` (a fixed number of rounds and no clock: the move is then a
function of the view and the rng alone).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

from bots.policies import Bot, Choose, make_policy, random_choice, register
from bots.policies.deals import CONSTRAINTS, SCORING, DealScoring, relative
from bots.policies.rollouts import CARD_PLAY, FAITHFUL_WHEN, Rollout, with_heuristic
from games.engine.base import Option
from games.engine.chance import Chance
from games.engine.protocol import JSON, Action, Engine, IllegalAction

OPTIONS: dict[str, Option] = {
    "budget_ms": Option(200, int, minimum=1, maximum=60_000, help="thinking time per move, in milliseconds"),
}
#: Where the measured strength needs more time than the default (docs/bots.md): Machiavelli's endgame decision
#: needs two rounds of about 100-150 ms each, Tarocchi's bids about ten rounds of heuristic rollouts.
DEFAULT_BUDGET_MS: dict[str, int] = {"machiavelli": 1000, "tarocchi-mineo": 300}
#: In-process only (tests, benchmarks): a fixed number of rounds instead of a clock, for repeatable moves.
ITERATIONS_MAX = 100_000
#: At most this many candidate moves are searched (the heuristic's first); fewer where a round of
#: rollouts is dear (the patiences' turns offer about twenty moves, most of them discards).
MAX_CANDIDATES = 24
CANDIDATE_CAP = {"machiavelli": 5, "spite-and-malice": 8, "diavoletto": 8}
#: Margin a move must beat the heuristic's by (in units of a typical score gap between seats), and how many
#: standard errors of the paired difference it must clear on top (see `_pick`).
PRIOR_BONUS = 0.03
CONFIDENCE = 1.0
#: Where rollouts cost too much to say anything, the search leaves the decision to the heuristic.
#: Machiavelli's heuristic holds its cards while the stock lasts and closes in one go: a rollout through
#: the rest of the stock costs about 100 ms even with the fast closing test, and two heuristics ran the
#: stock out in 80 of 80 deals (docs/bots.md). Once the stock is empty the deal ends within a few
#: turns and the search takes over (given the time for two rounds).
SEARCHES_WHEN: dict[str, Callable[[JSON], bool]] = {
    "machiavelli": lambda view: not view["stock"],
    # Tarocchi's stata (a solo on five cards, stakes doubled): one deal swings by up to six times the
    # difference either way, more than a move's rounds can average out; the search's stata solos lost.
    "tarocchi-mineo": lambda view: view["phase"] != "stata",
}
#: Draws of a world that must pass a game's extra check (`deals.CONSTRAINTS`) before the last one is kept.
SAMPLE_TRIES = 30
#: Match-level fallback for a kind without deal scoring: rollouts to the end, cut after this many actions.
FALLBACK = DealScoring(frozenset(), lambda data: [], None, scale=1.0, max_steps=2_000)


def heuristic_policy(engine: Engine) -> Choose | None:
    """The heuristic bot of this game, None when it has none (yet)."""
    try:
        return make_policy("heuristic", engine)
    except (KeyError, ImportError):
        return None


def rollout_policy(engine: Engine) -> Rollout:
    """Who plays the rollouts: the game's heuristic bot (with a quick card play in Tarocchi), else random
    moves (`bots.policies.rollouts` says why and where)."""
    heuristic = heuristic_policy(engine) or random_choice
    if engine.kind in CARD_PLAY:
        return with_heuristic(CARD_PLAY[engine.kind], heuristic)
    return heuristic


def _machiavelli_melds(view: JSON, limit: int, time_limit: float) -> list[Action]:
    """The solver's lay-downs that play the most hand cards (empty when it is not available)."""
    try:
        solver = import_module("bots.policies.machiavelli_solver")
    except ImportError:
        return []
    hand = view.get("hand") or []
    if not hand or view.get("opening"):
        return []
    return list(solver.best_melds(view["table"], hand, limit=limit, time_limit=time_limit))


def candidates(engine: Engine, view: JSON, legal: list[Action], prior: Action, rng: random.Random,
               time_limit: float = 1.0, value: Callable[[Action], float] | None = None) -> list[Action]:
    """The moves worth searching: the prior first, then the legal ones. Past the game's cap, the first
    listed legal move and the others best by `value` (a glance at the position right after the move; ties
    in random order), e.g. among Tarocchi's hundreds of discards or a patience turn's twenty moves. In
    Machiavelli: the prior, passing (or drawing), then the solver's best lay-downs (the sampled legal melds
    lay fewer cards); passing matters: the first to lay down on an empty stock feeds the other."""
    cap = CANDIDATE_CAP.get(engine.kind, MAX_CANDIDATES)
    machiavelli = engine.kind == "machiavelli"
    extra = _machiavelli_melds(view, 3, time_limit) if machiavelli else []
    rest = [action for action in legal[:1] if action != prior] if machiavelli else [
        action for action in legal if action != prior]
    room = max(0, cap - 1 - len(extra))
    if len(rest) > room:
        others = rng.sample(rest[1:], len(rest) - 1)
        if value is not None:
            others.sort(key=value, reverse=True)  # stable: equal values keep their random order
        rest = rest[:1] + others[: max(0, room - 1)]
    out: list[Action] = []
    for action in [prior, *rest, *extra]:
        if action not in out:
            out.append(action)
    return out[:cap]


def _pick(alive: list[int], samples: list[list[float]], rounds: int) -> int:
    """The move to play: the prior (index 0) unless another beat it clearly in the paired rounds.

    A move replaces the prior only when its mean gain over the prior, less `CONFIDENCE` standard errors of
    that paired difference, still exceeds `PRIOR_BONUS`: the rollouts are noisy and somewhat biased, and
    the heuristic's choice is the better bet whenever they do not speak clearly.
    """
    if rounds < 2:
        return 0
    best, best_bound = 0, PRIOR_BONUS
    for i in alive[1:]:
        diffs = [a - b for a, b in zip(samples[i][-rounds:], samples[0][-rounds:], strict=True)]
        mean = sum(diffs) / rounds
        spread = sum((d - mean) ** 2 for d in diffs) / (rounds - 1)
        bound = mean - CONFIDENCE * (spread / rounds) ** 0.5
        if bound > best_bound:
            best, best_bound = i, bound
    return best


def _always(view: JSON) -> bool:
    return True


class _OutOfTime(Exception):
    """The budget ran out inside a rollout: its round does not count."""


class Search:
    """The search for one engine; `choose` is the policy interface."""

    def __init__(self, engine: Engine, budget_ms: int | None, iterations: int | None) -> None:
        self.engine = engine
        self.budget = None if budget_ms is None else budget_ms / 1000
        self.iterations = iterations
        self.scoring = SCORING.get(engine.kind, FALLBACK)
        self.fast = self.policy = rollout_policy(engine)
        self.prior = heuristic_policy(engine) or self.policy
        #: Decisions whose rollouts the heuristic itself plays, where the cheap stand-in misjudges them.
        self.faithful = FAITHFUL_WHEN.get(engine.kind)
        self.rounds = 0  # complete rounds of the last decision (for tests and benchmarks)

    def choose(self, view: JSON, seat: int, legal: list[Action], rng: random.Random) -> Action:
        started = time.perf_counter()
        self.rounds = 0
        if len(legal) == 1:
            return legal[0]
        deadline = None if self.budget is None else started + self.budget
        prior = self.prior(view, seat, legal, random.Random(rng.getrandbits(64)))
        if not SEARCHES_WHEN.get(self.engine.kind, _always)(view):
            return prior
        self.policy = self.prior if self.faithful is not None and self.faithful(view) else self.fast
        glance = self._glance(view, seat, rng)
        moves = candidates(self.engine, view, legal, prior, rng,
                           time_limit=1.0 if self.budget is None else max(0.01, self.budget / 4), value=glance)
        if len(moves) == 1:
            return moves[0]
        check = CONSTRAINTS[self.engine.kind](view) if self.engine.kind in CONSTRAINTS else None
        samples: list[list[float]] = [[] for _ in moves]  # samples[i][r]: move i in round r
        alive = list(range(len(moves)))
        rounds = 0
        while self.iterations is None or rounds < self.iterations:
            world = self._sample(view, seat, rng, check)
            seed = rng.getrandbits(64)
            values = self._round(world, seat, [moves[i] for i in alive], seed, deadline)
            if values is None:
                break
            for i, value in zip(alive, values, strict=True):
                samples[i].append(value)
            rounds += 1
            if rounds & (rounds - 1) == 0 and len(alive) > 2:
                # successive halving after rounds 1, 2, 4, 8...; the prior (index 0) always stays
                ranked = sorted(alive[1:], key=lambda i: -sum(samples[i]))
                alive = [0, *sorted(ranked[: max(1, len(alive) // 2 - 1)])]
        self.rounds = rounds
        return moves[_pick(alive, samples, rounds)]

    def _glance(self, view: JSON, seat: int, rng: random.Random) -> Callable[[Action], float]:
        """A move's value right after it is played, on one sampled world (no rollout): cheap triage."""
        world_rng, seed = random.Random(rng.getrandbits(64)), rng.getrandbits(64)
        worlds: list[Any] = []  # drawn at the first call: most decisions need no triage

        def value(move: Action) -> float:
            if not worlds:
                worlds.append(self.engine.sample_state(view, seat, world_rng))
            try:
                return self.rollout(worlds[0], seat, move, seed, max_steps=0)
            except IllegalAction:
                return float("-inf")

        return value

    def _sample(self, view: JSON, seat: int, rng: random.Random, check: Callable[[Any, Any], bool] | None) -> Any:
        """A world consistent with the view; with a `check`, redrawn (a few times at most) until it passes."""
        for _ in range(SAMPLE_TRIES):
            world = self.engine.sample_state(view, seat, random.Random(rng.getrandbits(64)))
            if check is None or check(self.engine, world):
                break
        return world

    def _round(self, world: Any, seat: int, moves: list[Action], seed: int, deadline: float | None
               ) -> list[float] | None:
        """One rollout per move on the same world and seed; None when time ran out or the world refused."""
        values = []
        for move in moves:
            if deadline is not None and time.perf_counter() >= deadline:
                return None
            try:
                values.append(self.rollout(world, seat, move, seed, deadline))
            except (IllegalAction, _OutOfTime):
                return None
        return values

    def rollout(self, state: Any, seat: int, move: Action, seed: int, deadline: float | None = None,
                max_steps: int | None = None) -> float:
        """Play `move`, then the rollout policy for every seat until the deal ends (or the cut, or
        `max_steps` further actions: 0 scores the position right after the move); the score.

        Raises `_OutOfTime` when the clock passes `deadline` on the way (checked every few actions)."""
        engine, scoring, policy, evolve = self.engine, self.scoring, self.policy, self.engine.evolve
        chance = Chance(f"{seed:064x}")
        rng = random.Random(seed)
        actor, action = seat, move
        cuts = scoring.cut_after
        limit = scoring.max_steps if max_steps is None else max_steps
        for step in range(limit + 1):
            if deadline is not None and step % 8 == 7 and time.perf_counter() >= deadline:
                raise _OutOfTime
            for event in engine.decide_listed(state, actor, action, chance):
                state = evolve(state, event)
                if event.type in scoring.ends:
                    return relative(scoring.gains(event.data), seat, scoring.scale)
                if event.type in scoring.cut_events:
                    cuts -= 1
            if step == limit or (cuts == 0 and scoring.cut_after):
                break
            if engine.result(state) is not None:
                return self._final(state, seat)
            actor = min(engine.to_act(state))
            legal = engine.legal_actions(state, actor)
            action = legal[0] if len(legal) == 1 else policy(engine.view(state, actor), actor, legal, rng)
        if scoring.estimate is None:
            return 0.0
        return relative(scoring.estimate(engine.view(state, None)), seat, scoring.scale)

    def _final(self, state: Any, seat: int) -> float:
        """A match that ended inside the rollout (a kind without deal scoring): its scores, else its winners."""
        result = self.engine.result(state) or {}
        scores = result.get("scores")
        if isinstance(scores, dict) and scores:
            values = [float(scores[key]) for key in sorted(scores, key=int)]
            return relative(values, seat, max(1.0, max(values) - min(values)))
        return 1.0 if seat in (result.get("winners") or []) else 0.0


def _int_option(options: Mapping[str, Any], name: str, maximum: int) -> int | None:
    value = options.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise ValueError(f"search bot option {name!r} must be an integer from 1 to {maximum}")
    return value


def make(engine: Engine, options: Mapping[str, Any]) -> Choose:
    """`budget_ms` (default 200, or the game's in `DEFAULT_BUDGET_MS`) bounds each decision by the clock;
    `iterations` replaces the clock."""
    iterations = _int_option(options, "iterations", ITERATIONS_MAX)
    budget = _int_option(options, "budget_ms", OPTIONS["budget_ms"].maximum or 60_000)
    if iterations is None and budget is None:
        budget = DEFAULT_BUDGET_MS.get(engine.kind, OPTIONS["budget_ms"].default)
    return Search(engine, None if iterations is not None else budget, iterations).choose


register(Bot("search", "information-set Monte Carlo: rollouts to the end of the deal on sampled hidden cards, "
                       "with the heuristic bot playing the rollouts", make, None, OPTIONS,
             {"budget_ms": DEFAULT_BUDGET_MS}))
