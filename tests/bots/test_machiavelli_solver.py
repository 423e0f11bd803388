"""The exact Machiavelli meld solver against an exhaustive reference, and the heuristic bot built on it."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations

import pytest

from bots.policies import random_choice
from bots.policies.heuristic import machiavelli as heuristic
from bots.policies.machiavelli_solver import added_cards, best_meld, best_melds, is_valid
from games.engine.chance import Chance
from games.engine.runner import apply_action, begin
from games.rules.machiavelli import ENGINE
from games.rules.machiavelli.cards import CODE, NAME, PACK, code_of
from games.rules.machiavelli.melds import is_meld
from tests.engines.machiavelli.positions import play, position

# --- the exhaustive reference ----------------------------------------------------------------------------


@cache
def partitionable(cards: tuple[str, ...]) -> bool:
    """Can the multiset `cards` (sorted) be split entirely into valid melds? Tries every group holding the
    first card (a meld's cards all share its suit or its rank) and recurses on the rest."""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    kin = [i for i, c in enumerate(rest) if c[-1] == first[-1] or c[:-1] == first[:-1]]
    tried = set()
    for size in range(2, len(kin) + 1):
        for chosen in combinations(kin, size):
            group = (first, *(rest[i] for i in chosen))
            key = tuple(sorted(group))
            if key in tried:
                continue
            tried.add(key)
            if is_meld(group):
                left = tuple(c for i, c in enumerate(rest) if i not in chosen)
                if partitionable(left):
                    return True
    return False


def brute_force_max(table: list[list[str]], hand: list[str]) -> int:
    """The most hand cards that can join the table, over every sub-multiset of the hand."""
    on_table = [c for g in table for c in g]
    subsets = {tuple(sorted(s)) for size in range(1, len(hand) + 1) for s in combinations(hand, size)}
    for played in sorted(subsets, key=len, reverse=True):
        if partitionable(tuple(sorted(on_table + list(played)))):
            return len(played)
    return 0


# --- random small positions ------------------------------------------------------------------------------


def random_meld(rng: random.Random) -> list[str]:
    if rng.random() < 0.4:
        rank = rng.randrange(13)
        suits = rng.sample(range(4), rng.choice((3, 4)))
        return [NAME[s * 13 + rank] for s in suits]
    suit, length = rng.randrange(4), rng.randint(3, 5)
    low = rng.randint(1, 15 - length)
    return [NAME[code_of(suit, r)] for r in range(low, low + length)]


def random_position(seed: int) -> tuple[list[list[str]], list[str]]:
    """≤ 3 table melds and a hand of 2–6 cards: the first cards of further random melds, then cards near the
    table's (same suit within two ranks, or same rank) or from the whole pack, so that most positions
    allow a play and many need the table rearranged; never more than two copies of a card in all."""
    rng = random.Random(seed)
    while True:
        melds = [random_meld(rng) for _ in range(rng.randint(1, 5))]
        table = melds[: rng.randint(0, min(3, len(melds)))]
        used = Counter(c for g in table for c in g)
        if max(used.values(), default=0) <= 2:
            break
    hidden = [c for g in melds[len(table) :] for c in g]
    near = sorted({NAME[code_of(CODE[c] // 13, r)] for c in used for r in range(1, 15)
                   if abs(r - (CODE[c] % 13 + 1)) <= 2} | {NAME[s * 13 + CODE[c] % 13] for c in used for s in range(4)})
    hand: list[str] = []
    size = rng.randint(2, 6)
    for card in hidden[: rng.randint(0, size)]:  # whole hidden melds, or their first cards
        if used[card] < 2:
            used[card] += 1
            hand.append(card)
    for _ in range(size - len(hand)):
        for _ in range(20):
            card = rng.choice(near) if near and rng.random() < 0.8 else rng.choice(PACK)
            if used[card] < 2:
                used[card] += 1
                hand.append(card)
                break
    return table, sorted(hand, key=CODE.__getitem__)


POSITIONS = [random_position(seed) for seed in range(500)]


def test_solver_finds_the_maximum_of_the_brute_force_on_every_small_position():
    misses, playable, regrouped = [], 0, 0
    for table, hand in POSITIONS:
        best = best_meld(table, hand)
        found = len(added_cards(table, best)) if best else 0
        expected = brute_force_max(table, hand)
        playable += expected > 0
        regrouped += bool(best) and any(group not in best["table"] for group in table)
        if found != expected:
            misses.append((table, hand, found, expected))
    assert not misses, misses[:3]
    # the positions are interesting: many allow a play, and many of those plays change table melds
    assert playable > 0.4 * len(POSITIONS) and regrouped > 0.1 * len(POSITIONS)


@pytest.mark.parametrize(("table", "hand", "played"), [
    ([["6H", "7H", "8H", "9H"]], ["6S", "6D", "KC"], 2),  # rules scenario 4: split a run to make a set
    ([["5C", "6C", "7C"]], ["8C", "9D"], 1),
    ([], ["AH", "2H", "3H", "QH", "KH", "AH"], 6),  # both Aces of a suit, low and high
    ([["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"]], ["AH", "AH"], 2),  # A 2 … K A
    ([["QS", "KS", "AS"]], ["2S", "3S"], 0),  # no wrapping K A 2
    ([["7S", "7H", "7D"], ["7S", "8S", "9S"]], ["7C", "7H", "7D"], 3),
    ([], ["9C"], 0),
])
def test_solver_on_known_positions(table, hand, played):
    best = best_meld(table, hand)
    assert (len(added_cards(table, best)) if best else 0) == played == brute_force_max(table, hand)


def test_every_solver_answer_is_accepted_by_the_engine():
    checked = 0
    for table, hand in POSITIONS[:150]:
        for action in best_melds(table, hand, limit=3):
            start = position([" ".join(hand), "2C"], [" ".join(g) for g in table], "3C 4C 5C",
                             failed_operation="reject")
            _, events = play(start, 0, action)
            assert events[0].type == "meld"
            assert events[0].data["added"] == added_cards(table, action)
            checked += 1
    assert checked > 100


def test_alternatives_are_distinct_valid_and_best_first():
    table, hand = [["6H", "7H", "8H"]], ["5H", "9H", "10H", "9S", "9D", "2C"]
    found = best_melds(table, hand, limit=6)
    played = [tuple(added_cards(table, a)) for a in found]
    assert len(found) == 6 and len(set(played)) == 6
    assert [len(p) for p in played] == sorted((len(p) for p in played), reverse=True)
    assert len(played[0]) == brute_force_max(table, hand) == 4  # 5H on the run, 9S 9H 9D; 10H waits for 9H
    assert all(is_valid(table, hand, a) for a in found)


def test_a_position_where_highs_presolve_fails_is_still_solved():
    # From a real deal: HiGHS stops with a solve error when presolve is on; the solver retries without it.
    # The only play is QC, after AS joins the Aces, KS the Kings, and the four Queens split into two sets.
    table = [g.split() for g in ("2S 2H 2D 2C", "3H 3D 3C", "3S 3H 3D", "4C 5C 6C 7C", "4S 4D 4C", "5S 5H 5D",
                                 "5S 5H 5D", "6H 7H 8H 9H", "6S 6H 6C", "7S 7D 7C", "8H 8D 8C", "9S 9H 9C",
                                 "AH AD AC", "KH KD KC", "QS KS AS", "QS QH QD QC")]
    hand = ["2S", "10S", "4D", "10D", "10D", "QC"]
    best = best_meld(table, hand)
    assert best is not None and added_cards(table, best) == ["QC"] and is_valid(table, hand, best)


def test_nothing_to_play_gives_no_action():
    assert best_meld([["QS", "KS", "AS"]], ["2S", "5D"]) is None
    assert best_melds([], [], limit=3) == []


# --- the heuristic bot -----------------------------------------------------------------------------------


def play_deal(policies, seed: int, *, checked=None) -> list[float]:
    """A single-deal match; `checked(view, legal, action, events)` sees every heuristic decision."""
    seats = len(policies)
    chance = Chance(f"{seed:064x}")
    rng = random.Random(seed)
    position_, _ = begin(ENGINE, seats, ENGINE.normalize_options({"deals": 1}, seats), chance)
    while (result := ENGINE.result(position_.state)) is None:
        seat = min(ENGINE.to_act(position_.state))
        view = ENGINE.view(position_.state, seat)
        legal = ENGINE.legal_actions(position_.state, seat)
        action = policies[seat](view, seat, legal, rng)
        position_, events = apply_action(ENGINE, position_, seat, action, chance)
        if checked is not None and policies[seat] is heuristic.choose:
            checked(view, legal, action, events)
    return [float(result["scores"][str(s)]) for s in range(seats)]


def test_heuristic_plays_only_valid_actions_and_holds_back_until_it_can_close():
    decisions = Counter()

    def checked(view, legal, action, events):
        assert events[0].type != "meld_failed"
        table, hand = view["table"], view["hand"]
        sampled = max((len(added_cards(table, a)) for a in legal if a["type"] == "meld"), default=0)
        if action["type"] != "meld":
            assert action in legal
            assert sampled < len(hand)  # it never draws when a sampled meld would close the deal
            assert view["stock"] or not sampled  # on an empty stock it sheds what it can
            decisions[action["type"]] += 1
            return
        laid = len(added_cards(table, action))
        assert laid == len(hand) or not view["stock"]  # a lay-down closes, unless the stock is empty
        assert laid >= sampled
        decisions["close" if laid == len(hand) else "shed"] += 1
        decisions["more than the samples"] += laid > sampled

    for seed, seats in enumerate((2, 3, 4, 2, 3)):
        play_deal([heuristic.choose if s % 2 == 0 else random_choice for s in range(seats)], seed, checked=checked)
    assert decisions["close"] >= 3 and decisions["draw"] > 50
    assert decisions["more than the samples"] > 0  # the solver finds plays the sample misses


def test_heuristic_beats_random_in_duplicate_two_player_deals():
    wins, deals = 0.0, 0
    for seed in range(10):
        for seat in (0, 1):
            policies = [random_choice, random_choice]
            policies[seat] = heuristic.choose
            scores = play_deal(policies, 1_000 + seed)
            wins += 1.0 if scores[seat] > scores[1 - seat] else 0.5 if scores[seat] == scores[1 - seat] else 0.0
            deals += 1
    assert wins / deals >= 0.75  # measured: 100 % over 200 deals (bench/machiavelli_bots.py)


def test_heuristic_draws_in_the_opening():
    start = position(["6S 6D 6C KC", "2C"], [], "3C 4C 5C", opening=True)
    view = ENGINE.view(start.state, 0)
    assert heuristic.choose(view, 0, ENGINE.legal_actions(start.state, 0), random.Random(0)) == {"type": "draw"}
