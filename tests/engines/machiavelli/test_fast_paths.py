"""The shortcuts of the engine against the plain computations they stand for: a meld action that carries
its outcome from `legal_actions` (`legal.MeldAction`, `legal.outcome`), the table facts derived from the
table before (`tables.rearranged`) and carried by a meld event's table (`tables.facts_of`), the hand rows
and table facts every state carries, and the read-only parts that actions, views and events share."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings

from games.engine.chance import Chance
from games.engine.protocol import Event
from games.engine.runner import begin, fold
from games.rules.machiavelli import ENGINE
from games.rules.machiavelli.legal import meld_actions, outcome
from games.rules.machiavelli.melds import check_submission
from games.rules.machiavelli.state import hand_rows
from games.rules.machiavelli.tables import facts, facts_of
from tests.engines.machiavelli.positions import SEED, position
from tests.engines.machiavelli.test_melds import situations


def _copy(action: dict) -> dict:
    return json.loads(json.dumps(action))


def _same_facts(found, table) -> None:
    """`found` are the facts of `table`, as `facts` computes them from scratch."""
    expected = facts(tuple(table))
    assert found[0] == expected[0] and list(found[1]) == list(expected[1]) and found[2] == expected[2]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_a_listed_meld_has_the_outcome_of_the_full_check(situation):
    table, hand, _ = situation
    if list(table) != sorted(table):  # no state holds such a table: the full check, which sorts it
        assert all(outcome(action, table, hand) is None for action in meld_actions(table, hand))
        table = tuple(sorted(table))
    for index in range(len(meld_actions(table, hand))):
        action = meld_actions(table, hand)[index]  # each answer's actions carry their outcome
        new_table, added = check_submission(table, hand, _copy(action)["table"])
        after, fast_added = outcome(action, table, hand)
        assert after[0] == new_table and fast_added == added
        _same_facts(after, new_table)


SPADES = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]


@pytest.mark.parametrize(("table", "hand"), [
    ((tuple(SPADES[1:]),), ("AS",)),  # 2 … K and the Ace after the King: A 2 … K, the Ace low
    ((tuple(SPADES + ["AS"]),), ("AD", "AH")),  # an Ace freed from A … K A leaves A 2 … K
])
def test_a_listed_meld_leaves_its_groups_in_normal_form(table, hand):
    actions = meld_actions(table, hand)
    assert actions
    for index in range(len(actions)):
        action = meld_actions(table, hand)[index]
        new_table, added = check_submission(table, hand, _copy(action)["table"])
        after, fast_added = outcome(action, table, hand)
        assert after[0] == new_table and fast_added == added
        _same_facts(after, new_table)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_a_copied_or_changed_meld_is_checked_in_full(situation):
    table, hand, _ = situation
    table = tuple(sorted(table))
    actions = meld_actions(table, hand)
    for action in actions:
        assert outcome(_copy(action), table, hand) is None  # not one of the listed objects
        assert outcome(action, table, hand[:-1]) is None  # another hand
    if actions:
        action = actions[0]
        action["table"].append(["AS", "2S", "3S"])
        assert outcome(action, table, hand) is None
        action["table"].pop()
        assert outcome(action, table, hand) is not None  # as listed again
        action["table"] = list(reversed(action["table"]))
        if action["table"] != list(reversed(action["table"])):
            assert outcome(action, table, hand) is None


def _playout(seats: int, seed: int):
    """Every state of a seeded random game, with the action and events that left it."""
    options = ENGINE.normalize_options({}, seats)
    chance = Chance(f"{seed:064x}")
    position_, _ = begin(ENGINE, seats, options, chance)
    rng = random.Random(seed)
    while ENGINE.result(position_.state) is None:
        seat = min(ENGINE.to_act(position_.state))
        actions = ENGINE.legal_actions(position_.state, seat)
        action = actions[rng.randrange(len(actions))]
        events = ENGINE.decide_listed(position_.state, seat, action, chance)
        yield position_, seat, action, events
        position_ = fold(ENGINE, events, position_)


@pytest.mark.parametrize("seats", [2, 4])
def test_states_carry_the_rows_of_their_hands_and_the_facts_of_their_table(seats):
    for position_, _, _, _ in _playout(seats, 3):
        state = position_.state
        for seat, hand in enumerate(state.hands):
            assert state.rows[4 * seat : 4 * seat + 4] == hand_rows(hand)
        assert state.facts[0] is state.table
        _same_facts(state.facts, state.table)


def test_a_listed_meld_decides_as_its_json_copy_does():
    """`decide_listed` on a listed meld (its outcome carried) gives the events `decide` gives after the full
    check, of the action itself or of its JSON copy."""
    melds = 0
    for position_, seat, action, events in _playout(3, 5):
        if action["type"] != "meld":
            continue
        melds += 1
        expected = [(e.type, e.data, e.public, e.visible_to, e.actor) for e in events]
        for submitted in (action, _copy(action)):
            chance = Chance(f"{5:064x}", (), position_.shuffles)
            checked = ENGINE.decide(position_.state, seat, submitted, chance)
            assert expected == [(e.type, e.data, e.public, e.visible_to, e.actor) for e in checked]
    assert melds


def test_decide_checks_a_listed_meld_in_full(monkeypatch):
    """Only `decide_listed` takes a listed meld's carried outcome; `decide` never reads it."""
    from games.rules.machiavelli import decide as decide_module

    table = position(["10C 4C 5C", "AS"], table=["10S 10H 10D"], stock="JS")
    meld = next(a for a in ENGINE.legal_actions(table.state, 0) if a["type"] == "meld")
    calls = []
    monkeypatch.setattr(decide_module, "outcome", lambda *args: calls.append(args) or None)
    ENGINE.decide(table.state, 0, meld, Chance(SEED, (), table.shuffles))
    assert calls == []
    ENGINE.decide_listed(table.state, 0, meld, Chance(SEED, (), table.shuffles))
    assert len(calls) == 1


def test_the_fold_of_a_meld_finds_the_facts_of_its_table_again():
    table = position(["10C 4C 5C", "AS"], table=["10S 10H 10D"], stock="JS")
    state = table.state
    actions = ENGINE.legal_actions(state, 0)
    meld = next(a for a in actions if a["type"] == "meld")
    events = ENGINE.decide(state, 0, meld, Chance(SEED, (), table.shuffles))
    lists = events[0].data["table"]
    assert facts_of(lists)[2] is lists  # the very facts `decide` derived
    stored = json.loads(json.dumps(lists))
    assert facts_of(stored)[0] == facts_of(lists)[0]  # a stored event: computed again, equal
    folded = fold(ENGINE, [Event("meld", json.loads(json.dumps(events[0].data)), actor=0)], table).state
    assert folded == fold(ENGINE, events[:1], table).state


def test_shared_parts_are_read_only():
    table = position(["9S 9H QD", "4C"], table=["10S 10H 10D", "AH 2H 3H"], stock="JS KS")
    view = ENGINE.view(table.state, 0)
    for change in (lambda: view["table"].append([]), lambda: view["table"][0].append("JS"),
                   lambda: view["options"].update(x=1), lambda: view["scores"].clear()):
        with pytest.raises(TypeError):
            change()
    view["hand"].append("JS")  # the viewer's own lists are fresh
    view["hand_counts"][0] = 0
    assert ENGINE.view(table.state, 0)["hand"] == ["9S", "9H", "QD"]
    draw = ENGINE.legal_actions(table.state, 0)[0]
    events = ENGINE.decide(table.state, 0, draw, Chance(SEED, (), table.shuffles))
    with pytest.raises(TypeError):
        events[0].data["cards"].append("JS")


def test_a_listed_meld_carries_its_outcome_for_any_equal_table_and_hand():
    table = (("10D", "10H", "10S"), ("2H", "3H", "AH"))
    hand = ("9S", "10C", "4H")
    actions = meld_actions(table, hand)
    later = meld_actions((("2C", "3C", "AC"),), ("4C",))  # a later answer does not disturb the first
    assert actions and later
    equal_table, equal_hand = tuple(tuple(group) for group in table), tuple(list(hand))
    for action in actions:
        new_table, added = check_submission(table, hand, _copy(action)["table"])
        after, fast_added = outcome(action, equal_table, equal_hand)
        assert after[0] == new_table and fast_added == added
        for copied in (dict(action), pickle.loads(pickle.dumps(action)), copy.deepcopy(action)):
            assert type(copied) is dict and copied == action and outcome(copied, table, hand) is None
