"""Standings after any round: points and the usual tie-breaks, from the played tables alone (pure).

Points of a game are the share of table-mates an entrant finished ahead of (a tie counts half): 1 for a
win, 1/2 for a draw and 0 for a loss at a two-seat table; 1, 2/3, 1/3, 0 at a four-seat table. A bye is
worth 1 in Swiss, 1/2 in duplicate and nothing in round robin (everybody sits out as often there).

* Buchholz: the sum of the final points of every table-mate met (a bye adds nothing).
* Sonneborn-Berger: for every table-mate met, the share scored against that one (1, 1/2, 0) times that
  one's final points.
* Duplicate: matchpoints. The tables of a round played the same deals, so the entrants who held the same
  seat held the same cards: each scores 1 for every other holder it did better than (finishing place
  first, then its margin over the table's mean score) and 1/2 per tie, divided by the number of others.
* Knockout: the stage reached (rounds survived), then the place at the last table played.

Order: Swiss by points, Buchholz, Sonneborn-Berger; round robin by points, Sonneborn-Berger, wins;
duplicate by matchpoints, then game points; knockout by stage, last place, points. Equal keys share a rank.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tournaments.results import competition_ranks

ROUND_ROBIN, SWISS, KNOCKOUT, DUPLICATE = "round_robin", "swiss", "knockout", "duplicate"
BYE_POINTS = {ROUND_ROBIN: Fraction(0), SWISS: Fraction(1), KNOCKOUT: Fraction(0), DUPLICATE: Fraction(1, 2)}


@dataclass(frozen=True)
class Played:
    """One finished table: entrants in seat order, their places, scores and which way scores count."""

    entrants: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None = None
    direction: int = 0
    advanced: tuple[int, ...] = ()  # knockout: who went through


@dataclass(frozen=True)
class RoundPlayed:
    tables: list[Played]
    byes: list[int] = field(default_factory=list)


@dataclass
class Row:
    entrant: int
    rank: int = 0
    points: Fraction = Fraction(0)
    game_points: Fraction = Fraction(0)
    buchholz: Fraction = Fraction(0)
    sonneborn_berger: Fraction = Fraction(0)
    played: int = 0
    wins: int = 0
    byes: int = 0
    stage: int = 0
    last_place: int = 0

    def as_dict(self) -> dict:
        return {"rank": self.rank, "entrant": self.entrant, "points": _num(self.points),
                "game_points": _num(self.game_points), "buchholz": _num(self.buchholz),
                "sonneborn_berger": _num(self.sonneborn_berger), "played": self.played, "wins": self.wins,
                "byes": self.byes, "stage": self.stage}


def _num(value: Fraction) -> int | float:
    return value.numerator if value.denominator == 1 else round(float(value), 4)


def pairwise(ranks: Sequence[int], i: int, j: int) -> Fraction:
    """What seat i scored against seat j: 1 ahead, 1/2 level, 0 behind."""
    return Fraction(1) if ranks[i] < ranks[j] else Fraction(1, 2) if ranks[i] == ranks[j] else Fraction(0)


def game_points(ranks: Sequence[int], i: int) -> Fraction:
    others = len(ranks) - 1
    return sum((pairwise(ranks, i, j) for j in range(len(ranks)) if j != i), Fraction(0)) / others


def compute(fmt: str, entrants: Sequence[int], rounds: Sequence[RoundPlayed]) -> list[Row]:
    """The standings of `entrants` (in seed order, which also orders exact ties) after `rounds`."""
    rows = {e: Row(e) for e in entrants}
    for number, played_round in enumerate(rounds, start=1):
        for table in played_round.tables:
            for i, e in enumerate(table.entrants):
                row = rows[e]
                row.played += 1
                row.game_points += game_points(table.ranks, i)
                row.wins += table.ranks[i] == 1 and any(r > 1 for r in table.ranks)
                row.stage = max(row.stage, number - 1 + (e in table.advanced))
                row.last_place = table.ranks[i]
        for e in played_round.byes:
            rows[e].byes += 1
            rows[e].stage = max(rows[e].stage, number)
            rows[e].last_place = 1
            rows[e].game_points += BYE_POINTS[fmt]
        if fmt == DUPLICATE:
            for e, mp in matchpoints(played_round.tables).items():
                rows[e].points += mp
            for e in played_round.byes:
                rows[e].points += BYE_POINTS[fmt]
    if fmt != DUPLICATE:
        for row in rows.values():
            row.points = row.game_points
    for played_round in rounds:
        for table in played_round.tables:
            for i, j in itertools.permutations(range(len(table.entrants)), 2):
                me, other = rows[table.entrants[i]], rows[table.entrants[j]]
                me.buchholz += other.points
                me.sonneborn_berger += pairwise(table.ranks, i, j) * other.points
    seed = {e: i for i, e in enumerate(entrants)}
    ordered = sorted(rows.values(), key=lambda r: (_key(fmt, r), seed[r.entrant]))
    for row, rank in zip(ordered, competition_ranks([_key(fmt, r) for r in ordered]), strict=True):
        row.rank = rank
    return ordered


def _key(fmt: str, row: Row) -> tuple:
    if fmt == SWISS:
        return (-row.points, -row.buchholz, -row.sonneborn_berger)
    if fmt == ROUND_ROBIN:
        return (-row.points, -row.sonneborn_berger, -row.wins)
    if fmt == DUPLICATE:
        return (-row.points, -row.game_points)
    return (-row.stage, row.last_place, -row.points)


def matchpoints(tables: Sequence[Played]) -> dict[int, Fraction]:
    """Each entrant's matchpoints among the holders of the same seat at the other tables of a round."""
    holders: dict[tuple[int, int], list[tuple[int, tuple]]] = defaultdict(list)
    for table in tables:
        mean = sum(table.scores) / len(table.scores) if table.scores else 0
        for seat, e in enumerate(table.entrants):
            margin = table.direction * (table.scores[seat] - mean) if table.scores and table.direction else 0
            holders[(len(table.entrants), seat)].append((e, (game_points(table.ranks, seat), margin)))
    out: dict[int, Fraction] = {}
    for group in holders.values():
        for e, mine in group:
            others = [theirs for other, theirs in group if other != e]
            if not others:
                out[e] = Fraction(1, 2)
                continue
            won = sum(Fraction(1) if mine > t else Fraction(1, 2) if mine == t else Fraction(0) for t in others)
            out[e] = won / len(others)
    return out
