"""Standings against examples computed by hand, places read from results, and openskill ratings."""

from fractions import Fraction

import pytest

from tournaments.ratings import Skill, rate
from tournaments.results import places
from tournaments.standings import Played, RoundPlayed, compute, game_points, matchpoints

A, B, C, D = 1, 2, 3, 4
WIN, DRAW, LOSS = (1, 2), (1, 1), (2, 1)  # ranks of (first seat, second seat)


def _round(*tables, byes=()):
    return RoundPlayed([Played(entrants, ranks) for entrants, ranks in tables], list(byes))


# A four-player round robin, which is also three Swiss rounds:
#   round 1: A beats B, C draws D;  round 2: A draws C, B beats D;  round 3: A beats D, B draws C.
# Points: A 2.5, B 1.5, C 1.5, D 0.5.
# Buchholz (sum of the opponents' points): A 1.5+1.5+0.5 = 3.5, B 2.5+0.5+1.5 = 4.5, C 0.5+2.5+1.5 = 4.5,
#   D 1.5+1.5+2.5 = 5.5.
# Sonneborn-Berger (result against each opponent times its points): A 1*1.5 + 1/2*1.5 + 1*0.5 = 2.75,
#   B 0*2.5 + 1*0.5 + 1/2*1.5 = 1.25, C 1/2*0.5 + 1/2*2.5 + 1/2*1.5 = 2.25, D 1/2*1.5 + 0 + 0 = 0.75.
# B and C are level on points and Buchholz: Sonneborn-Berger puts C second.
EXAMPLE = [
    _round(((A, B), WIN), ((C, D), DRAW)),
    _round(((A, C), DRAW), ((B, D), WIN)),
    _round(((A, D), WIN), ((B, C), DRAW)),
]


@pytest.mark.parametrize("fmt", ["swiss", "round_robin"])
def test_hand_computed_buchholz_and_sonneborn_berger(fmt):
    rows = {row.entrant: row for row in compute(fmt, [A, B, C, D], EXAMPLE)}
    assert {e: rows[e].points for e in rows} == {A: Fraction(5, 2), B: Fraction(3, 2), C: Fraction(3, 2),
                                                 D: Fraction(1, 2)}
    assert {e: rows[e].buchholz for e in rows} == {A: Fraction(7, 2), B: Fraction(9, 2), C: Fraction(9, 2),
                                                   D: Fraction(11, 2)}
    assert {e: rows[e].sonneborn_berger for e in rows} == {A: Fraction(11, 4), B: Fraction(5, 4),
                                                           C: Fraction(9, 4), D: Fraction(3, 4)}
    assert [r.entrant for r in compute(fmt, [A, B, C, D], EXAMPLE)] == [A, C, B, D]
    assert [r.rank for r in compute(fmt, [A, B, C, D], EXAMPLE)] == [1, 2, 3, 4]
    assert rows[A].wins == 2 and rows[D].wins == 0 and rows[A].played == 3


def test_standings_after_a_round_use_only_that_far():
    rows = compute("swiss", [A, B, C, D], EXAMPLE[:1])
    assert [(r.entrant, r.rank, r.points) for r in rows] == [(A, 1, 1), (C, 2, Fraction(1, 2)),
                                                             (D, 2, Fraction(1, 2)), (B, 4, 0)]


def test_a_swiss_bye_is_a_point_and_adds_no_buchholz_and_ties_share_a_rank():
    rows = compute("swiss", [A, B, C], [_round(((A, B), WIN), byes=[C])])
    by = {r.entrant: r for r in rows}
    assert by[C].points == 1 and by[C].byes == 1 and by[C].buchholz == 0
    assert by[A].rank == by[C].rank == 1 and by[B].rank == 3
    assert compute("round_robin", [A, B, C], [_round(((A, B), WIN), byes=[C])])[1].points == 0


def test_multi_seat_points_are_the_share_of_table_mates_beaten():
    assert [game_points((1, 2, 2), i) for i in range(3)] == [1, Fraction(1, 4), Fraction(1, 4)]
    assert [game_points((2, 1, 4, 3), i) for i in range(4)] == [Fraction(2, 3), 1, 0, Fraction(1, 3)]


def test_duplicate_matchpoints_compare_the_holders_of_the_same_cards():
    # three tables played the same deal; seat 0 held the same cards everywhere, and so did seat 1
    tables = [Played((1, 2), (1, 2), (10, 0), 1), Played((3, 4), (1, 2), (4, 0), 1), Played((5, 6), (2, 1), (0, 7), 1)]
    assert matchpoints(tables) == {1: 1, 3: Fraction(1, 2), 5: 0, 6: 1, 4: Fraction(1, 2), 2: 0}
    rows = compute("duplicate", [1, 2, 3, 4, 5, 6], [RoundPlayed(tables, [])])
    assert [r.entrant for r in rows[:2]] == [1, 6] and rows[0].rank == rows[1].rank == 1


def test_knockout_orders_by_stage_reached_then_last_place():
    rounds = [
        RoundPlayed([Played((A, D), (1, 2), advanced=(A,)), Played((B, C), (2, 1), advanced=(C,))]),
        RoundPlayed([Played((A, C), (2, 1), advanced=(C,))]),
    ]
    rows = compute("knockout", [A, B, C, D], rounds)
    assert [(r.entrant, r.rank, r.stage) for r in rows] == [(C, 1, 2), (A, 2, 1), (B, 3, 0), (D, 3, 0)]


# -- places from results -----------------------------------------------------------------------------
def test_places_follow_the_winners_direction():
    # Spite and Malice: the winner scores points
    assert places({"winners": [1], "scores": {"0": 0, "1": 12}}, 2).ranks == (2, 1)
    # Muscio counts down: the winner has the lowest score
    muscio = places({"winners": [2], "scores": {"0": 9, "1": 4, "2": 0, "3": 4}}, 4)
    assert muscio.ranks == (4, 2, 1, 2) and muscio.direction == -1
    # Machiavelli: the highest total wins; a level field is a draw
    assert places({"winners": [0, 2], "scores": {"0": 5, "1": -5, "2": 5}}, 3).ranks == (1, 3, 1)
    assert places({"winners": [], "scores": {"0": 0, "1": 0}}, 2).ranks == (1, 1)
    # no result (an aborted game), or winners whose scores do not tell the direction
    assert places(None, 3).ranks == (1, 1, 1)
    assert places({"winners": [0], "scores": {"0": 3, "1": 3, "2": 1}}, 3).ranks == (1, 2, 2)


# -- ratings -----------------------------------------------------------------------------------------
def test_ratings_move_by_place_and_ties_share():
    start = [Skill(), Skill(), Skill()]
    first, tied, last = rate(start, [1, 2, 3]), rate(start, [1, 1, 3]), rate(start, [3, 2, 1])
    assert first[0].mu > start[0].mu > first[2].mu and all(s.sigma < start[0].sigma for s in first)
    assert tied[0].mu == pytest.approx(tied[1].mu) and last[2].mu == pytest.approx(first[0].mu)
    assert Skill().ordinal == pytest.approx(0)
    # beating a stronger player gains more than beating an equal one
    strong = rate([Skill(), Skill(35, 3)], [1, 2])[0].mu
    assert strong > rate([Skill(), Skill()], [1, 2])[0].mu
    with pytest.raises(ValueError):
        rate([Skill()], [1])
