"""The fast closing test (`machiavelli_partition`) against the exhaustive reference and the integer
programme, and the rollout turn built on it against the heuristic it stands in for."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bots.policies.heuristic import machiavelli as heuristic
from bots.policies.machiavelli_partition import closing_action, partition
from bots.policies.machiavelli_solver import closing_meld
from bots.policies.rollouts import machiavelli_turn
from games.engine.chance import Chance
from games.engine.runner import apply_action, begin
from games.rules.machiavelli import ENGINE
from games.rules.machiavelli.cards import DECK, NAME, code_of
from games.rules.machiavelli.melds import is_meld
from tests.bots.test_machiavelli_solver import POSITIONS, partitionable, random_meld
from tests.engines.machiavelli.positions import play, position


def _check_groups(cards: list[str], groups: list[list[str]]) -> None:
    assert all(is_meld(tuple(group)) for group in groups), groups
    assert Counter(card for group in groups for card in group) == Counter(cards)


def _melded(rng: random.Random, melds: int) -> list[str]:
    """Cards made of random melds (never more than two copies of a card), then sometimes one card more or
    less: about half of them split into melds, many only in one way."""
    used: Counter[str] = Counter()
    for _ in range(melds):
        meld = random_meld(rng)
        if all(used[card] < 2 for card in meld):
            used.update(meld)
    cards = list(used.elements())
    if rng.random() < 0.3:
        cards.remove(rng.choice(cards))
    elif rng.random() < 0.3:
        cards.append(rng.choice([card for card in DECK if used[card] < 2]))
    return cards


@pytest.mark.parametrize(("cards", "expected"), [
    ("AH 2H 3H", True), ("QH KH AH", True), ("KH AH 2H", False),  # an Ace low or high, never wrapping
    (" ".join(NAME[code_of(0, rank)] for rank in range(1, 15)), True),  # A 2 ... K A of spades
    ("AS AH AD AC AS AH AD", True), ("AS AH AS AH", False),  # Aces in sets; two sets need three suits each
    ("AH 2H 3H QH KH AH", True), ("AH 2H 3H 4H QH KH", True), ("AH 2H 3H 4H QH JH", False),
    ("7H 8H 9H 10H 7S 7D 7C", True), ("7H 8H 9H 7S 7D 9S 9D", False),  # a card in a set or in the run
    ("5C 6C 7C 8C 9C 5C 6C 7C 8C 9C", True), ("9C", False), ("", True),
])
def test_known_multisets(cards, expected):
    found = partition(cards.split())
    assert (found is not None) == expected == partitionable(tuple(sorted(cards.split())))
    if found is not None:
        _check_groups(cards.split(), found)


def test_agrees_with_the_exhaustive_reference_on_small_multisets():
    rng = random.Random(11)
    cases = [sorted(c for g in table for c in g) + hand for table, hand in POSITIONS[:300]]
    cases += [_melded(rng, rng.randint(1, 3)) for _ in range(700)]
    splits = 0
    for cards in cases:
        if len(cards) > 12:
            continue
        found = partition(cards)
        assert (found is not None) == partitionable(tuple(sorted(cards))), cards
        if found is not None:
            _check_groups(cards, found)
            splits += 1
    assert splits > 200


def test_agrees_with_the_integer_programme_on_big_multisets():
    rng = random.Random(12)
    splits = 0
    for _ in range(60):
        cards = _melded(rng, rng.randint(8, 30)) if rng.random() < 0.7 else rng.sample(DECK, rng.randint(20, 96))
        found = partition(cards)
        assert (found is not None) == (closing_meld([], cards) is not None), sorted(cards)
        if found is not None:
            _check_groups(cards, found)
            splits += 1
    assert 15 < splits < 60


def test_the_closing_action_closes_the_deal():
    start = position(["6S 6D 9H 10H", "2C"], ["6H 7H 8H"], "3C 4C 5C")
    action = closing_action([["6H", "7H", "8H"]], ["6S", "6D", "9H", "10H"])
    _, events = play(start, 0, action)
    assert events[0].type == "meld" and any(event.type == "deal_end" for event in events)
    assert closing_action([["6H", "7H", "8H"]], ["6S", "9H", "10H"]) is None


def test_the_rollout_turn_decides_like_the_heuristic():
    """Over self-play deals (two and three players), at every turn: the same kind of move (close, draw),
    or None where the heuristic's own lay-down is wanted (an empty stock with no close)."""
    seen: Counter[str] = Counter()
    for seed, seats in ((1, 2), (2, 3)):
        chance = Chance(f"{seed:064x}")
        pos, _ = begin(ENGINE, seats, ENGINE.normalize_options({"deals": 1}, seats), chance)
        rng = random.Random(seed)
        while ENGINE.result(pos.state) is None:
            seat = min(ENGINE.to_act(pos.state))
            view, legal = ENGINE.view(pos.state, seat), ENGINE.legal_actions(pos.state, seat)
            action = heuristic.choose(view, seat, legal, rng)
            fast = machiavelli_turn(view, seat, legal, rng)
            closes = action["type"] == "meld" and len(view["hand"]) == sum(map(len, action["table"])) - sum(
                map(len, view["table"]))
            if fast is None:
                assert view["opening"] or (not view["stock"] and not closes)
                seen["left to the heuristic"] += 1
            elif closes:
                assert fast["type"] == "meld"
                _, events = apply_action(ENGINE, pos, seat, fast, Chance(f"{seed:064x}"))
                assert any(event.type == "deal_end" for event in events)
                seen["close"] += 1
            else:
                assert fast == action == {"type": "draw"}
                seen["draw"] += 1
            pos, _ = apply_action(ENGINE, pos, seat, action, chance)
    assert seen["draw"] > 50 and seen["close"] >= 1 and seen["left to the heuristic"] >= 1
