"""Can a multiset of Machiavelli cards be split entirely into melds, and how: the closing test, fast.

A player closes when the table plus the whole hand can be rearranged into valid melds, i.e. when that
multiset splits entirely into sets and runs. The heuristic asks the integer programme
(`bots.policies.machiavelli_solver`) every turn, which costs milliseconds to tens of milliseconds; the
search bot's rollouts ask it at every turn of every simulated deal, so they use this exact dynamic
programme instead: a fraction of a millisecond when a card fits nowhere, under 10 ms on the 52- to
96-card questions of real two-player endgames (the integer programme: up to 80 ms), rarely up to 0.1 s on
contrived near-complete packs.

It sweeps the ranks A(1), 2, ..., K, A(14). The state between two ranks is, per suit, the runs still open
(by their start rank: at most two, as each card exists twice) and how many Aces of the suit were kept back
to end runs high (chosen at rank 1). At each rank, each suit's cards continue the open runs (those of
fewer than three cards must go on), start new runs, or go into the sets of that rank (3 or 4 distinct
suits; two sets at most). Runs of three or more cards are interchangeable for what follows, so failures
are memoised on the state with run lengths capped at three.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import product

from games.rules.machiavelli.cards import CODE, NAME, code_of

Action = dict
#: One suit's choice at one rank: (cards into sets, its open runs afterwards, runs closed: (start, end)).
_Option = tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]


def partition(cards: Iterable[str]) -> list[list[str]] | None:
    """The cards split entirely into valid melds (each a list of card ids), or None when they cannot be."""
    counts = [[0] * 15 for _ in range(4)]
    for card in cards:
        code = CODE[card]
        counts[code // 13][code % 13 + 1] += 1
    if any(count > 2 for row in counts for count in row) or _stranded(counts):
        return None
    found = _Sweep(counts).solve()
    if found is None:
        return None
    runs, sets = found
    groups = [[NAME[code_of(suit, rank)] for rank in range(low, high + 1)] for suit, low, high in runs]
    groups += [[NAME[code_of(suit, rank)] for suit in suits] for rank, suits in sets]
    return groups


def closing_action(table: Sequence[Sequence[str]], hand: Sequence[str]) -> Action | None:
    """A `meld` action that lays the whole hand (closing the deal), or None when none exists."""
    if not hand:
        return None
    groups = partition([card for group in table for card in group] + list(hand))
    return None if groups is None else {"type": "meld", "table": groups}


def _stranded(counts: list[list[int]]) -> bool:
    """Whether some card fits no meld at all among these cards (most hands that cannot close: no search)."""
    for row in counts:
        lane = [0, *row[1:14], row[1], 0]  # ranks 0..15: the Ace at 1 and 14, nothing at 0 and 15
        for rank in range(1, 14):
            if not row[rank] or sum(1 for other in counts if other[rank]) >= 3:
                continue
            places = [rank, 14] if rank == 1 else [rank]
            if not any(lane[r - 1] and (lane[r - 2] if r > 1 else 0) or lane[r - 1] and lane[r + 1]
                       or lane[r + 1] and lane[r + 2] for r in places):
                return True
    return False


def _sets(rank: int, taken: Sequence[int]) -> list[tuple[int, tuple[int, ...]]] | None:
    """The sets of `rank` made of `taken[suit]` cards of each suit, or None when they cannot be made."""
    most = max(taken)
    if most == 0:
        return []
    ones = tuple(suit for suit in range(4) if taken[suit] == 1)
    if most == 1:
        return [(rank, ones)] if len(ones) >= 3 else None
    twos = tuple(suit for suit in range(4) if taken[suit] == 2)
    half = (len(ones) + 1) // 2
    if len(twos) + len(ones) - half < 3:
        return None
    return [(rank, tuple(sorted(twos + ones[:half]))), (rank, tuple(sorted(twos + ones[half:])))]


class _Sweep:
    """The rank-by-rank search for one multiset (`counts[suit][rank]`, ranks 1..13)."""

    def __init__(self, counts: list[list[int]]) -> None:
        self.counts = counts
        self.failed: set[tuple] = set()

    def solve(self) -> tuple[list[tuple[int, int, int]], list[tuple[int, tuple[int, ...]]]] | None:
        # Aces kept back to end runs at 14: each such run needs its own Q and K of the suit
        keep = [min(row[1], row[12], row[13]) for row in self.counts]
        for high in product(*(range(count + 1) for count in keep)):
            found = self._step(1, ((), (), (), ()), high)
            if found is not None:
                return found
        return None

    def _available(self, rank: int, suit: int, high: tuple[int, ...]) -> int:
        if rank == 1:
            return self.counts[suit][1] - high[suit]
        return high[suit] if rank == 14 else self.counts[suit][rank]

    def _options(self, rank: int, held: int, starts: tuple[int, ...]) -> Iterator[_Option]:
        """One suit's ways to use its `held` cards of `rank` given its open runs (`starts`)."""
        must = tuple(start for start in starts if rank - start < 3)
        free = tuple(start for start in starts if rank - start >= 3)
        spare = held - len(must)
        if spare < 0:
            return
        for going_on in range(min(len(free), spare) + 1):
            # a new run while a run of three or more stops here: continuing that one instead does as well
            starts_ok = rank <= 12 and going_on == len(free)
            for new in range(spare - going_on + 1 if starts_ok else 1):
                into_sets = spare - going_on - new
                if into_sets and rank == 14:
                    continue
                opened = tuple(sorted(must + free[:going_on] + (rank,) * new))
                yield into_sets, opened, tuple((start, rank - 1) for start in free[going_on:])

    def _step(self, rank: int, opens: tuple[tuple[int, ...], ...], high: tuple[int, ...]
              ) -> tuple[list[tuple[int, int, int]], list[tuple[int, tuple[int, ...]]]] | None:
        if rank == 15:
            return [(suit, start, 14) for suit in range(4) for start in opens[suit]], []
        key = (rank, high, tuple(tuple(min(rank - start, 3) for start in starts) for starts in opens))
        if key in self.failed:
            return None
        per_suit = [list(self._options(rank, self._available(rank, suit, high), opens[suit])) for suit in range(4)]
        for choice in product(*per_suit):
            sets = _sets(rank, [option[0] for option in choice])
            if sets is None:
                continue
            found = self._step(rank + 1, tuple(option[1] for option in choice), high)
            if found is not None:
                runs, more_sets = found
                runs += [(suit, start, end) for suit, option in enumerate(choice) for start, end in option[2]]
                return runs, more_sets + sets
        self.failed.add(key)
        return None
