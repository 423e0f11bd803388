"""Who sits with whom in a round: pure functions of the entrants, the standings and the past rounds.

No Django here, so the properties (no rematch when avoidable, fair byes, balanced seats) are unit-tested
directly. Entrants are plain ints; a table is a tuple of entrants in seat order; a round is a `Pairing`.

* Round robin, two seats: Berger tables (circle method), every pair meets once per cycle, the first seat
  alternating so that nobody holds it more than once more than the second.
* Round robin and duplicate, 3+ seats: a balanced draw. First every entrant gets the seat (the "hand") it
  has held least, as a maximum-weight matching of entrants to seat slots; then the holders of each hand are
  spread over the tables so that as few pairs as possible meet again. Over `k` rounds of `k`-seat tables
  every entrant holds every seat once (when nobody sits out), which is what duplicate needs.
* Swiss, two seats: a maximum-weight matching (networkx) whose weights rank, in this order: nobody gets a
  second bye, no rematch, equal scores, then the Dutch shape (top half of a score group against the bottom).
* Swiss, 3+ seats: tables cut from neighbouring standings, then entrants swapped between tables while it
  removes rematches.
* Knockout: a seeded bracket with byes for the top seeds (two seats), or tables of neighbouring seeds
  dealt in a snake whose top finishers advance (3+ seats), down to a final table.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

Table = tuple[int, ...]


@dataclass(frozen=True)
class Pairing:
    """The tables of one round (entrants in seat order) and who sits out with a bye."""

    tables: list[Table]
    byes: list[int] = field(default_factory=list)

    def entrants(self) -> list[int]:
        return [e for table in self.tables for e in table] + list(self.byes)


@dataclass
class History:
    """What past rounds say about pairing: who met whom, who had byes, who held which seat."""

    meetings: Counter = field(default_factory=Counter)  # frozenset({a, b}) -> times at the same table
    byes: Counter = field(default_factory=Counter)  # entrant -> byes received
    seats: defaultdict = field(default_factory=lambda: defaultdict(Counter))  # entrant -> seat -> times
    rounds: int = 0

    @classmethod
    def of(cls, rounds: Iterable[Pairing]) -> History:
        history = cls()
        for pairing in rounds:
            history.add(pairing)
        return history

    def add(self, pairing: Pairing) -> None:
        self.rounds += 1
        for table in pairing.tables:
            for seat, entrant in enumerate(table):
                self.seats[entrant][seat] += 1
            for a, b in itertools.combinations(table, 2):
                self.meetings[frozenset((a, b))] += 1
        for entrant in pairing.byes:
            self.byes[entrant] += 1

    def met(self, a: int, b: int) -> int:
        return self.meetings[frozenset((a, b))]


# -- table sizes and byes ------------------------------------------------------------------------------
def table_sizes(entrants: int, size: int, smallest: int) -> list[int]:
    """Sizes of the tables for `entrants`: tables of `size`, or `size` and `size - 1` when that seats
    everybody and `size - 1 >= smallest`; whoever is left over sits out."""
    if entrants < smallest:
        return []
    tables = math.ceil(entrants / size)
    if size - 1 >= smallest and entrants >= tables * (size - 1):
        short = tables * size - entrants
        return [size] * (tables - short) + [size - 1] * short
    full = entrants // size
    rest = entrants - full * size
    return [size] * full + ([rest] if rest >= smallest else [])


def pick_byes(order: Sequence[int], count: int, history: History) -> list[int]:
    """The `count` entrants who sit out: fewest byes so far first, then the last in `order`."""
    if count <= 0:
        return []
    position = {e: i for i, e in enumerate(order)}
    chosen = sorted(order, key=lambda e: (history.byes[e], -position[e]))[:count]
    return sorted(chosen, key=position.__getitem__)


# -- seats -------------------------------------------------------------------------------------------
def balanced_seat_order(table: Sequence[int], history: History, turn: int = 0) -> Table:
    """The seat order of `table` that gives everybody the seats it held least (ties rotate with `turn`)."""
    people = list(table)
    shift = turn % len(people)
    people = people[shift:] + people[:shift]

    def cost(order: Sequence[int]) -> tuple[int, int]:
        squares = sum((history.seats[e][s] + 1) ** 2 for s, e in enumerate(order))
        return squares, sum(history.seats[e][s] for s, e in enumerate(order))

    return tuple(min(itertools.permutations(people), key=cost))


# -- round robin -------------------------------------------------------------------------------------
def round_robin_pairs(entrants: Sequence[int], round_index: int) -> Pairing:
    """Round `round_index` (from 0) of Berger tables; later cycles repeat with the seats swapped."""
    players: list[int | None] = list(entrants)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    cycle, r = divmod(round_index, n - 1)
    fixed, ring = players[-1], players[:-1]
    ring = ring[r:] + ring[:r]
    pairs = [(ring[0], fixed) if r % 2 == 0 else (fixed, ring[0])]
    for i in range(1, n // 2):
        pairs.append((ring[i], ring[-i]) if i % 2 else (ring[-i], ring[i]))
    tables, byes = [], []
    for a, b in pairs:
        if a is None or b is None:
            byes.append(a if b is None else b)
        else:
            tables.append((b, a) if cycle % 2 else (a, b))
    return Pairing(tables, byes)


def round_robin_rounds(entrants: int, table_size: int) -> int:
    """Rounds of one full cycle: each pair meets once (two seats) or could have (3+ seats)."""
    if table_size == 2:
        return entrants - 1 if entrants % 2 == 0 else entrants
    return max(1, math.ceil((entrants - 1) / (table_size - 1)))


def balanced_draw(entrants: Sequence[int], sizes: Sequence[int], history: History, turn: int = 0,
                  hands_first: bool = False) -> list[Table]:
    """Tables of the given sizes for `entrants` (exactly `sum(sizes)` of them) with as few repeated
    meetings as possible, and the seats each entrant held least. With `hands_first` (duplicate) the seats
    are settled first and exactly balanced, and only holders of one hand are swapped between tables.
    Deterministic for equal inputs."""
    entrants = list(entrants)
    if len(entrants) != sum(sizes):
        raise ValueError("balanced_draw needs exactly as many entrants as seats")
    if hands_first:
        hands = _assign_hands(entrants, sizes, history, turn)
        start = [{seat: hands[seat][i] for seat in range(z)} for i, z in enumerate(sizes)]  # sizes: largest first
        tables = _search(start, history, same_seat=True, seed=turn)
        return [tuple(table[s] for s in range(len(table))) for table in tables]
    start, at = [], 0
    for size in sizes:
        start.append(dict(enumerate(entrants[at:at + size])))
        at += size
    tables = _search(start, history, same_seat=False, seed=turn)
    return [balanced_seat_order(list(t.values()), history, turn=turn) for t in tables]


def _assign_hands(entrants: list[int], sizes: Sequence[int], history: History, turn: int) -> dict[int, list[int]]:
    """seat -> the entrants who hold it this round, fewest previous holdings first (a matching)."""
    slots = [(seat, copy) for seat in range(max(sizes)) for copy in range(sum(1 for z in sizes if z > seat))]
    worst = max((c for e in entrants for c in history.seats[e].values()), default=0) + 2
    big = (worst + 1) ** 2 * len(entrants) * 4 * len(slots) + 1
    graph = nx.Graph()
    for i, entrant in enumerate(entrants):
        for seat, copy in slots:
            held = history.seats[entrant][seat]
            spread = (i + seat + turn) % len(slots)  # deterministic tie-break that rotates the hands
            graph.add_edge(("e", entrant), ("s", seat, copy), weight=big - ((held + 1) ** 2) * 4 * len(slots) - spread)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    hands: dict[int, list[int]] = defaultdict(list)
    for a, b in matching:
        entrant_node, slot_node = (a, b) if a[0] == "e" else (b, a)
        hands[slot_node[1]].append(entrant_node[1])
    for seat in hands:
        hands[seat].sort(key=entrants.index)
    return hands


def _search(start: list[dict[int, int]], history: History, same_seat: bool, seed: int,
            restarts: int = 12) -> list[dict[int, int]]:
    """Local search over swaps from `start` and from shuffled restarts; the cheapest draw wins."""
    rng = random.Random(seed)
    best, best_cost = None, None
    for attempt in range(restarts):
        tables = [dict(t) for t in start]
        if attempt:
            _shuffle_tables(tables, rng, same_seat)
        _improve_by_swaps(tables, history, same_seat)
        cost = sum(_table_cost(t.values(), history) for t in tables)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    return best


def _shuffle_tables(tables: list[dict[int, int]], rng: random.Random, same_seat: bool) -> None:
    places = [(t, s) for t, table in enumerate(tables) for s in table]
    groups = [[p for p in places if p[1] == seat] for seat in {s for _, s in places}] if same_seat else [places]
    for group in groups:
        people = [tables[t][s] for t, s in group]
        rng.shuffle(people)
        for (t, s), person in zip(group, people, strict=True):
            tables[t][s] = person


def _table_cost(members: Iterable[int], history: History) -> int:
    return sum(history.met(a, b) ** 2 for a, b in itertools.combinations(members, 2))


def _improve_by_swaps(tables: list[dict[int, int]], history: History, same_seat: bool, extra=None) -> None:
    """Swap two entrants between two tables while it lowers the cost (the same seat only, for hands)."""
    def cost(table: dict[int, int], index: int) -> int:
        return _table_cost(table.values(), history) + (extra(index, table) if extra else 0)

    improved, rounds = True, 0
    while improved and rounds < 50:
        improved, rounds = False, rounds + 1
        for t1, t2 in itertools.combinations(range(len(tables)), 2):
            for s1, s2 in itertools.product(list(tables[t1]), list(tables[t2])):
                if same_seat and s1 != s2:
                    continue
                before = cost(tables[t1], t1) + cost(tables[t2], t2)
                tables[t1][s1], tables[t2][s2] = tables[t2][s2], tables[t1][s1]
                if cost(tables[t1], t1) + cost(tables[t2], t2) < before:
                    improved = True
                else:
                    tables[t1][s1], tables[t2][s2] = tables[t2][s2], tables[t1][s1]


# -- swiss -------------------------------------------------------------------------------------------
def swiss_pairs(standing: Sequence[int], scores: dict[int, float], history: History) -> Pairing:
    """Two-seat Swiss round by maximum-weight matching over every pair (plus a bye node when odd).

    Priorities, each outweighing all the next ones together: no second bye; no rematch; pair equal scores
    (the squared difference); the bye to the lowest score; within a score group top half against bottom half.
    """
    order = list(standing)
    n = len(order)
    rank = {e: i for i, e in enumerate(order)}
    group = Counter(_half_points(scores.get(e, 0)) for e in order)
    most = max([_half_points(scores.get(e, 0)) for e in order] + [1])
    shape_unit = n**3 + 1
    score_unit = shape_unit
    rematch_unit = (n + 2) * (4 * (most + 1) ** 2 + 1) * score_unit
    bye_unit = (n + 2) * (history.rounds + 2) * rematch_unit
    base = (n + 2) * (history.rounds + 2) * bye_unit

    graph = nx.Graph()
    graph.add_nodes_from(order)
    for a, b in itertools.combinations(order, 2):
        sa, sb = _half_points(scores.get(a, 0)), _half_points(scores.get(b, 0))
        shape = 0
        if sa == sb:
            shape = (abs(rank[a] - rank[b]) - group[sa] // 2) ** 2
        weight = base - history.met(a, b) * rematch_unit - (sa - sb) ** 2 * score_unit - shape
        graph.add_edge(a, b, weight=weight)
    if n % 2:
        for e in order:
            score = _half_points(scores.get(e, 0))
            weight = base - history.byes[e] * bye_unit - score**2 * score_unit - (n - rank[e])
            graph.add_edge(e, "bye", weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    tables, byes = [], []
    for a, b in matching:
        if "bye" in (a, b):
            byes.append(b if a == "bye" else a)
            continue
        first, second = sorted((a, b), key=rank.__getitem__)
        tables.append(balanced_seat_order((first, second), history, turn=history.rounds))
    tables.sort(key=lambda t: min(rank[e] for e in t))
    return Pairing(tables, byes)


def _half_points(score: float) -> int:
    return round(score * 2)


def swiss_tables(standing: Sequence[int], sizes: Sequence[int], history: History) -> list[Table]:
    """3+ seat Swiss: cut the standings into tables in order, then swap to avoid rematches, preferring
    swaps between near tables (the spread of standings at a table is the smaller cost)."""
    order = list(standing)
    rank = {e: i for i, e in enumerate(order)}
    tables: list[dict[int, int]] = []
    start = 0
    for size in sizes:
        tables.append(dict(enumerate(order[start:start + size])))
        start += size
    weight = len(order) ** 2 + 1  # one rematch costs more than any spread of standings

    def spread(index: int, table: dict[int, int]) -> int:
        ranks = [rank[e] for e in table.values()]
        return max(ranks) - min(ranks)

    _improve_by_swaps(tables, _ScaledHistory(history, weight), same_seat=False, extra=spread)
    return [balanced_seat_order(list(t.values()), history, turn=history.rounds) for t in tables]


class _ScaledHistory(History):
    """A view of a history whose meeting counts weigh `factor` times more (for mixed swap costs)."""

    def __init__(self, history: History, factor: int) -> None:
        super().__init__(history.meetings, history.byes, history.seats, history.rounds)
        self.factor = factor

    def met(self, a: int, b: int) -> int:
        return super().met(a, b) * self.factor


# -- knockout ----------------------------------------------------------------------------------------
def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a power-of-two `size`: 1 meets `size`, 2 meets `size-1`,
    and the top two seeds can meet only in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def bracket_slots(seeds: Sequence[int]) -> list[int | None]:
    """The first-round bracket of `seeds` (best first), None where a top seed has a bye."""
    size = 1 << max(1, math.ceil(math.log2(len(seeds))))
    return [seeds[s - 1] if s <= len(seeds) else None for s in bracket_order(size)]


def knockout_first_round(seeds: Sequence[int]) -> Pairing:
    """Two-seat knockout: the bracket for `seeds` (best first); the top seeds get the byes."""
    slots = bracket_slots(seeds)
    tables, byes = [], []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        if a is None or b is None:
            byes.append(a if b is None else b)
        else:
            tables.append((a, b))
    return Pairing(tables, byes)


def knockout_pairs(advanced: Sequence[int], seeds: Sequence[int], history: History) -> Pairing:
    """Two-seat knockout after round one: the survivors, in their bracket order, meet two by two (the
    bracket keeps each survivor's first-round slot order, so the top two seeds can meet only in the final)."""
    slot = {e: i for i, e in enumerate(bracket_slots(seeds)) if e is not None}
    alive = sorted(advanced, key=slot.__getitem__)
    pairs = zip(alive[::2], alive[1::2], strict=False)
    tables = [balanced_seat_order(pair, history, turn=history.rounds) for pair in pairs]
    byes = [alive[-1]] if len(alive) % 2 else []
    return Pairing(tables, byes)


def knockout_tables(alive: Sequence[int], size: int, seats: range, history: History) -> tuple[Pairing, int]:
    """3+ seat knockout round for `alive` (best seed first) and how many advance from each table.

    Everybody left fits at one table of `size` (or at one of the game's largest, when two tables cannot be
    formed): that is the final. Otherwise tables of
    `size` dealt in a snake (so top seeds are spread), leftover top seeds advance with a bye, and enough
    finishers advance from each table for the next round to be playable."""
    alive = list(alive)
    sizes = table_sizes(len(alive), size, seats.start)
    if len(alive) <= size or (len(alive) <= seats.stop - 1 and len(sizes) < 2):
        return Pairing([balanced_seat_order(alive, history, turn=history.rounds)], []), 1
    seated = sum(sizes)
    byes = alive[: len(alive) - seated]
    rest = alive[len(byes):]
    groups: list[list[int]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    snake = itertools.cycle(order + order[::-1])
    for entrant in rest:
        table = next(snake)
        while len(groups[table]) >= sizes[table]:
            table = next(snake)
        groups[table].append(entrant)
    advance = 1
    if len(groups) + len(byes) < seats.start:
        advance = min(min(sizes) - 1, math.ceil((seats.start - len(byes)) / len(groups)))
    tables = [balanced_seat_order(g, history, turn=history.rounds) for g in groups]
    return Pairing(tables, byes), advance


def knockout_rounds(entrants: int, size: int, seats: range) -> int:
    """How many rounds a knockout of `entrants` takes."""
    if size == 2:
        return max(1, math.ceil(math.log2(entrants)))
    alive, rounds = entrants, 0
    while True:
        rounds += 1
        pairing, advance = knockout_tables(list(range(alive)), size, seats, History())
        if len(pairing.tables) == 1 and not pairing.byes:
            return rounds
        alive = len(pairing.tables) * advance + len(pairing.byes)


def advancers(table: Sequence[int], ranks: Sequence[int] | None, count: int, rng: random.Random) -> list[int]:
    """The `count` best finishers of a knockout table; a shared rank is settled by `rng` (a drawn lot).
    A table without a result (an aborted game) is settled by lot entirely."""
    keys = {e: (ranks[i] if ranks is not None else 1, rng.random()) for i, e in enumerate(table)}
    return sorted(table, key=keys.__getitem__)[:count]
