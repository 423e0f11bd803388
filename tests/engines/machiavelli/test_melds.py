"""Property tests of the meld validator, the submission check and the sampled melds, each against a
brute-force reference that shares no code with the engine."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.protocol import IllegalAction
from games.rules.machiavelli.cards import DECK, PACK
from games.rules.machiavelli.legal import meld_actions
from games.rules.machiavelli.melds import check_submission, is_meld, normalise_codes, verdict

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]


def _reference_melds() -> set[tuple[str, ...]]:
    """Every valid meld, as a sorted tuple of card ids: written out from the rules, not from the engine."""
    out = set()
    for rank in RANKS:
        for size in (3, 4):
            for suits in combinations(SUITS, size):
                out.add(tuple(sorted(rank + suit for suit in suits)))
    for suit in SUITS:
        sequence = RANKS + ["A"]  # A 2 … K A: a run is any stretch of 3 or more
        for low in range(len(sequence)):
            for high in range(low + 2, len(sequence)):
                out.add(tuple(sorted(rank + suit for rank in sequence[low : high + 1])))
    return out


REFERENCE = _reference_melds()


def reference_is_meld(group) -> bool:
    return tuple(sorted(group)) in REFERENCE


def test_the_reference_has_the_expected_size():
    # sets: 13 ranks × (4 triples + 1 quadruple); runs: 4 suits × stretches of 3..14 of 14 positions, less
    # one per suit because A…K and 2…A hold the same cards
    assert len(REFERENCE) == 13 * 5 + 4 * (sum(14 - length + 1 for length in range(3, 15)) - 1)


cards = st.sampled_from(PACK)
near_melds = st.sampled_from(sorted(REFERENCE)).flatmap(
    lambda meld: st.lists(st.sampled_from(PACK), max_size=2).flatmap(
        lambda extra: st.permutations(list(meld) + extra).flatmap(
            lambda perm: st.integers(0, len(perm)).map(lambda cut: perm[: max(cut, len(perm) - len(extra))])
        )
    )
)
groups = st.one_of(
    st.lists(cards, max_size=15),
    st.sampled_from(sorted(REFERENCE)).flatmap(st.permutations),
    near_melds,
    st.lists(st.sampled_from([c for c in PACK if c.endswith("H")]), min_size=3, max_size=14),
    st.lists(st.sampled_from([c for c in PACK if c[:-1] in ("7", "A")]), min_size=2, max_size=5),
)


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(groups)
def test_the_validator_agrees_with_brute_force(group):
    assert is_meld(group) == reference_is_meld(group)
    found = verdict(tuple(group))
    assert (found is not None) == reference_is_meld(group)
    if found is not None:
        assert sorted(found) == sorted(group)  # a permutation of the group
        assert verdict(found) == found  # the normal form is stable
        ranks = [c[:-1] for c in found]
        if len(set(ranks)) == 1:  # a set: suits in the order S H D C
            assert [c[-1] for c in found] == [s for s in SUITS if s in {c[-1] for c in found}]
        else:  # a run: a stretch of A 2 … K A, from the low end
            sequence = RANKS + ["A"]
            assert any(sequence[i : i + len(ranks)] == ranks for i in range(len(sequence)))


def test_normalise_codes_orders_aces():
    from games.rules.machiavelli.cards import CODE, NAME

    def norm(text):
        return [NAME[c] for c in normalise_codes([CODE[c] for c in text.split()])]

    assert norm("2H AH 3H") == ["AH", "2H", "3H"]
    assert norm("AH KH QH") == ["QH", "KH", "AH"]
    long_run = norm("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH")
    assert long_run == [rank + "H" for rank in RANKS] + ["AH"]
    assert norm("7C 7S 7D") == ["7S", "7D", "7C"]


# -- the submission check ----------------------------------------------------------------------------


def reference_check(table, hand, submission):
    """The rules of §6.2 restated with plain multisets: a code, or (valid?, added cards)."""
    flat = [c for g in submission for c in g]
    if any(c not in PACK for c in flat):
        return "unknown_card"
    on_table = Counter(c for g in table for c in g)
    submitted = Counter(flat)
    if on_table - submitted:
        return "table_card_missing"
    added = submitted - on_table
    if not added:
        return "no_card_added"
    if added - Counter(hand):
        return "card_not_in_hand"
    return all(reference_is_meld(g) for g in submission), sorted(added.elements())


@st.composite
def situations(draw):
    """A table of valid melds and a hand (all from the 104 cards), and a submission that is often close to
    legal: the table regrouped, with some hand cards and sometimes a stray card or a card left out."""
    pool = list(DECK)
    table = []
    for meld in draw(st.lists(st.sampled_from(sorted(REFERENCE)), max_size=6)):
        if not Counter(meld) - Counter(pool):
            for card in meld:
                pool.remove(card)
            table.append(tuple(verdict(meld)))
    hand = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=10))
    if Counter(hand) - Counter(pool):
        hand = sorted(set(hand))
    flat = [c for g in table for c in g]
    flat += draw(st.lists(st.sampled_from(hand), max_size=4))
    if draw(st.booleans()) and flat:
        flat.pop(draw(st.integers(0, len(flat) - 1)))
    if draw(st.integers(0, 5)) == 0:
        flat.append(draw(st.sampled_from([*PACK, "ZZ", "1H"])))
    flat = draw(st.permutations(flat))
    cuts = sorted(draw(st.lists(st.integers(0, len(flat)), max_size=8)))
    submission = [list(flat[a:b]) for a, b in zip([0, *cuts], [*cuts, len(flat)], strict=True) if b > a]
    if draw(st.booleans()):  # keep the untouched groups as they lie, like most clients
        submission = [list(g) for g in table] + [list(flat[len(flat) - 3 :])] if len(flat) >= 3 else submission
    return tuple(table), tuple(sorted(hand)), submission


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_the_submission_check_agrees_with_plain_multisets(situation):
    table, hand, submission = situation
    expected = reference_check(table, hand, submission)
    try:
        new_table, added = check_submission(table, hand, submission)
    except IllegalAction as refused:
        assert refused.code == expected
        return
    assert not isinstance(expected, str), expected
    valid, reference_added = expected
    assert sorted(added) == reference_added
    assert (new_table is not None) == valid
    if new_table is not None:
        assert Counter(c for g in new_table for c in g) == Counter(c for g in submission for c in g)
        assert list(new_table) == sorted(new_table)
        assert all(reference_is_meld(g) for g in new_table)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_every_sampled_meld_is_legal_and_deterministic(situation):
    table, hand, _ = situation
    actions = meld_actions(table, hand)
    assert actions == meld_actions(table, hand)
    for action in actions:
        outcome = reference_check(table, hand, action["table"])
        assert outcome != "no_card_added" and not isinstance(outcome, str), outcome
        assert outcome[0], action
        new_table, _ = check_submission(table, hand, action["table"])
        assert new_table is not None


@pytest.mark.parametrize("hand, expected", [
    ("AS 2S 3S QS KS", [["AS", "2S", "3S"], ["QS", "KS", "AS"]]),  # one Ace, two runs offered separately
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", [["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S",
                                                     "JS", "QS", "KS", "AS"]]),
    ("7S 7H 7D 7C", [["7S", "7H", "7D", "7C"]]),
])
def test_new_melds_from_the_hand(hand, expected):
    offered = [a["table"] for a in meld_actions((), tuple(hand.split()))]
    assert [t[0] for t in offered] == expected
