"""Pairing properties, checked on the pure functions: every pair meets (round robin), no rematch when one
can be avoided and at most one bye each (Swiss), balanced seats and hands (draws, duplicate), brackets."""

import itertools
import random
from collections import Counter

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    History,
    Pairing,
    advancers,
    balanced_draw,
    bracket_order,
    knockout_first_round,
    knockout_pairs,
    knockout_rounds,
    knockout_tables,
    pick_byes,
    round_robin_pairs,
    round_robin_rounds,
    swiss_pairs,
    swiss_tables,
    table_sizes,
)


def _is_partition(pairing: Pairing, entrants) -> bool:
    seen = pairing.entrants()
    return sorted(seen) == sorted(entrants) and len(seen) == len(set(seen))


# -- round robin -------------------------------------------------------------------------------------
@given(st.integers(min_value=2, max_value=16))
def test_round_robin_every_pair_meets_once_with_balanced_first_seats(n):
    entrants = list(range(100, 100 + n))
    history = History()
    for r in range(round_robin_rounds(n, 2)):
        pairing = round_robin_pairs(entrants, r)
        assert _is_partition(pairing, entrants)
        history.add(pairing)
    assert len(history.meetings) == n * (n - 1) // 2 and set(history.meetings.values()) == {1}
    assert all(abs(history.seats[e][0] - history.seats[e][1]) <= 1 for e in entrants)
    assert all(history.byes[e] == (1 if n % 2 else 0) for e in entrants)


def test_round_robin_second_cycle_swaps_the_seats():
    entrants = [1, 2, 3, 4]
    first = round_robin_pairs(entrants, 0).tables
    second = round_robin_pairs(entrants, 3).tables
    assert second == [(b, a) for a, b in first]


@pytest.mark.parametrize(("n", "k", "rounds", "times"), [(9, 3, 4, 1), (8, 4, 7, 3)])
def test_multi_seat_round_robin_finds_the_perfect_draws(n, k, rounds, times):
    """9 entrants at tables of 3 meet every other exactly once in 4 rounds (the affine plane of order 3),
    8 at tables of 4 meet each other exactly 3 times in 7 rounds."""
    entrants = list(range(n))
    history = History()
    for r in range(rounds):
        tables = balanced_draw(entrants, table_sizes(n, k, 3), history, turn=r)
        assert _is_partition(Pairing(tables), entrants)
        history.add(Pairing(tables))
    assert len(history.meetings) == n * (n - 1) // 2 and set(history.meetings.values()) == {times}


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=4), st.integers(min_value=2, max_value=5), st.integers(0, 2**32))
def test_duplicate_draw_gives_everyone_every_hand_once(tables, k, seed):
    """With hands first, k rounds at k-seat tables seat every entrant once at every seat: each meets each hand."""
    entrants = random.Random(seed).sample(range(1000), tables * k)
    history = History()
    for r in range(k):
        drawn = balanced_draw(entrants, [k] * tables, history, turn=r, hands_first=True)
        assert _is_partition(Pairing(drawn), entrants) and all(len(t) == k for t in drawn)
        history.add(Pairing(drawn))
    assert all(history.seats[e] == Counter(range(k)) for e in entrants)


def test_duplicate_draw_for_two_seats_changes_opponents():
    entrants = [1, 2, 3, 4, 5, 6]
    history = History()
    for r in range(2):
        history.add(Pairing(balanced_draw(entrants, [2, 2, 2], history, turn=r, hands_first=True)))
    assert set(history.meetings.values()) == {1}


# -- table sizes and byes ----------------------------------------------------------------------------
@given(st.integers(0, 60), st.integers(2, 6), st.integers(2, 6))
def test_table_sizes_seat_all_but_fewer_than_a_table(n, size, smallest):
    smallest = min(smallest, size)
    sizes = table_sizes(n, size, smallest)
    assert all(smallest <= z <= size for z in sizes)
    assert 0 <= n - sum(sizes) < max(smallest, 1) or n < smallest


def test_byes_go_to_those_with_fewest_then_the_lowest_ranked():
    history = History.of([Pairing([], [4])])
    assert pick_byes([1, 2, 3, 4], 1, history) == [3]
    assert pick_byes([1, 2, 3, 4], 2, history) == [2, 3]


# -- swiss -------------------------------------------------------------------------------------------
def _rematch_free_possible(entrants, history, with_bye) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(entrants)
    graph.add_edges_from((a, b) for a, b in itertools.combinations(entrants, 2) if not history.met(a, b))
    if with_bye:
        graph.add_edges_from((e, "bye") for e in entrants if not history.byes[e])
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == len(entrants) + with_bye


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=14), st.integers(min_value=1, max_value=8), st.integers(0, 2**32))
def test_swiss_avoids_rematches_when_it_can_and_gives_fair_byes(n, rounds, seed):
    rng = random.Random(seed)
    entrants = list(range(1, n + 1))
    scores = Counter()
    history = History()
    for _ in range(rounds):
        standing = sorted(entrants, key=lambda e: (-scores[e], e))
        avoidable = _rematch_free_possible(entrants, history, n % 2 == 1)
        pairing = swiss_pairs(standing, dict(scores), history)
        assert _is_partition(pairing, entrants)
        assert len(pairing.byes) == n % 2
        if avoidable:
            assert all(not history.met(a, b) for a, b in pairing.tables), "a rematch that could be avoided"
        if pairing.byes and any(not history.byes[e] for e in entrants):
            assert history.byes[pairing.byes[0]] == 0, "a second bye while someone had none"
        history.add(pairing)
        for a, b in pairing.tables:
            outcome = rng.choice([1, 0.5, 0])
            scores[a] += outcome
            scores[b] += 1 - outcome
        for e in pairing.byes:
            scores[e] += 1
    if rounds <= n:
        assert max(history.byes.values(), default=0) <= 1


def test_swiss_pairs_within_score_groups_and_gives_the_bye_to_the_lowest():
    history = History.of([Pairing([(1, 2), (3, 4), (5, 6), (7, 8)])])
    scores = {1: 1, 3: 1, 5: 1, 7: 1, 2: 0, 4: 0, 6: 0, 8: 0}
    pairing = swiss_pairs([1, 3, 5, 7, 2, 4, 6, 8], scores, history)
    assert all(scores[a] == scores[b] for a, b in pairing.tables)
    # Dutch shape inside a group: top half against bottom half
    assert {frozenset(t) for t in pairing.tables} == {frozenset(p) for p in [(1, 5), (3, 7), (2, 6), (4, 8)]}

    odd = swiss_pairs([1, 2, 3, 4, 5], {1: 1, 2: 1, 3: 0.5, 4: 0.5, 5: 0}, History())
    assert odd.byes == [5]


def test_swiss_first_seat_goes_to_who_held_it_less():
    history = History.of([Pairing([(1, 2)]), Pairing([(1, 3)])])
    pairing = swiss_pairs([1, 4], {1: 0, 4: 0}, history)
    assert pairing.tables == [(4, 1)]


def test_multi_seat_swiss_cuts_the_standings_and_swaps_away_rematches():
    standing = list(range(1, 10))
    fresh = swiss_tables(standing, [3, 3, 3], History())
    assert [sorted(t) for t in fresh] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    history = History.of([Pairing([(1, 2, 3), (4, 5, 6), (7, 8, 9)])])
    again = swiss_tables(standing, [3, 3, 3], history)
    assert all(not history.met(a, b) for t in again for a, b in itertools.combinations(t, 2))
    assert 1 in again[0] and 9 in again[-1]  # still ordered by standings


# -- knockout ----------------------------------------------------------------------------------------
def test_bracket_order_keeps_the_top_seeds_apart():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    first = knockout_first_round([11, 12, 13, 14, 15])
    assert first.byes == [11, 12, 13] and first.tables == [(14, 15)]


@given(st.integers(min_value=2, max_value=40), st.integers(0, 2**32))
def test_knockout_runs_to_one_winner_and_top_seeds_meet_last(n, seed):
    rng = random.Random(seed)
    seeds = list(range(1, n + 1))
    pairing = knockout_first_round(seeds)
    history = History()
    rounds = 0
    while True:
        rounds += 1
        history.add(pairing)
        alive = [rng.choice(t) for t in pairing.tables] + pairing.byes
        if len(alive) == 1:
            break
        met_top = any(set(t) == {1, 2} for t in pairing.tables)
        pairing = knockout_pairs(alive, seeds, history)
        assert not met_top
    assert rounds == knockout_rounds(n, 2, range(2, 3))
    assert all(history.byes[e] <= 1 for e in seeds)


@pytest.mark.parametrize(("n", "size", "seats"), [(9, 3, range(3, 7)), (6, 3, range(3, 7)), (20, 4, range(3, 7)),
                                                  (7, 3, range(2, 7)), (16, 4, range(3, 7))])
def test_multi_seat_knockout_reaches_a_final_table(n, size, seats):
    alive = list(range(n))
    history = History()
    rounds = 0
    while True:
        rounds += 1
        pairing, advance = knockout_tables(alive, size, seats, history)
        assert _is_partition(pairing, alive) and all(len(t) in seats for t in pairing.tables)
        history.add(pairing)
        if len(pairing.tables) == 1 and not pairing.byes:
            break
        alive = sorted([e for t in pairing.tables for e in t[:advance]] + pairing.byes)
    assert rounds == knockout_rounds(n, size, seats)


def test_advancers_settle_a_shared_place_by_lot():
    assert advancers((5, 6, 7), (2, 1, 3), 1, random.Random(0)) == [6]
    lots = {advancers((5, 6), (1, 1), 1, random.Random(s))[0] for s in range(20)}
    assert lots == {5, 6}
