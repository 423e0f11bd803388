"""Hidden information: the dealer's peek, the secret discard, the secret partner, and determinisation."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine.cards import card_tokens
from games.rules.tarocchi_mineo import ENGINE
from games.rules.tarocchi_mineo.cards import CARD_IDS, DECK, SUIT_OF
from games.rules.tarocchi_mineo.rules import undiscardable

from .table import Table, arrange

CALLER = ["T20", "T19", "T17"] + [c for c in DECK if c[-1] == "B"][:12]


def _call_table(rules_version: int | None = None) -> Table:
    """Dealer 0; seat 2 calls T18, held by seat 3; seat 2 discards its three lowest batons."""
    table = Table([arrange(0, {2: CALLER, 3: ["T18"]})], dealer=0, rules_version=rules_version)
    table.say("pass", "pass", "pass", "pass", "pass", "call", "pass", "pass")
    return table


def _samples(table: Table, viewer, n: int = 40, seed: int = 1):
    rng = random.Random(seed)
    view = table.view(viewer)
    out = []
    engine = table.engine
    for _ in range(n):
        sampled = engine.sample_state(view, viewer, rng)
        assert engine.view(sampled, viewer) == view
        assert Counter(engine.all_cards(sampled)) == Counter(DECK)
        out.append(sampled)
    return out


def test_the_dealer_alone_sees_the_bottom_card():
    deck = arrange(1, {})
    table = Table([deck], dealer=1)
    peek = table.events_of("peek")[0]
    assert peek.visible_to == frozenset({1}) and peek.data["card"] == deck[62]
    for viewer in (0, 2, 3, None):
        assert not card_tokens(ENGINE.redact(peek, viewer), CARD_IDS)
        assert table.view(viewer)["peek"] is None
    assert table.view(1)["peek"] == deck[62]
    assert all(s.deal.stock[-1] == deck[62] for s in _samples(table, 1))
    assert len({s.deal.stock[-1] for s in _samples(table, 0)}) > 1  # others cannot know it
    table.say("solo")  # the monte is taken: now public, and the peek is over
    assert table.view(1)["peek"] is None and table.view(0)["monte"] == tuple(deck[60:])


@pytest.mark.parametrize("version", [1, 2])
def test_the_discard_is_known_to_the_declarer_only(version):
    table = _call_table(version)
    table.act(2, {"type": "discard", "cards": ["7B", "6B", "5B"]})
    event = table.events_of("discard")[0]
    assert event.visible_to == frozenset({2})
    for viewer in (0, 1, 3, None):
        assert ENGINE.redact(event, viewer)["data"] == {"seat": 2, "count": 3}
        assert table.view(viewer)["discard"] is None and table.view(viewer)["discard_count"] == 3
    assert table.view(2)["discard"] == ("7B", "6B", "5B")
    assert all(s.deal.discard == ("7B", "6B", "5B") for s in _samples(table, 2))
    others = _samples(table, 0)
    assert len({frozenset(s.deal.discard) for s in others}) > 1
    assert all(not any(undiscardable(card, version) for card in s.deal.discard) for s in others)


def test_the_partner_is_known_only_to_the_holder_of_the_called_card():
    table = _call_table()
    assert table.state.deal.partner == 3
    assert table.view(3)["partner"] == 3
    for viewer in (0, 1, 2, None):
        assert table.view(viewer)["partner"] is None
    assert {s.deal.partner for s in _samples(table, 3)} == {3}
    assert {s.deal.partner for s in _samples(table, 0)} == {1, 3}  # not the caller, not the viewer
    assert {s.deal.partner for s in _samples(table, 2)} == {0, 1, 3}  # the caller does not know
    assert {s.deal.partner for s in _samples(table, None)} == {0, 1, 3}
    for sampled in _samples(table, 0):  # the caller held every trump above the called card
        assert {"T20", "T19"} <= set(sampled.hands[2]) | set(sampled.deal.discard)


def test_a_rivanto_rules_its_author_out_as_partner_and_playing_the_called_card_reveals_it():
    table = _call_table()
    table.act(2, {"type": "discard", "cards": ["7B", "6B", "5B"]})
    table.say("no_scommessa", "no_rivanto", "rivanto")  # seat 3 (partner) declines, seat 0 declares
    assert {s.deal.partner for s in _samples(table, 2)} == {1, 3}
    assert {s.deal.partner for s in _samples(table, 1)} == {3}  # seat 1 can now deduce it
    while "T18" in table.state.hands[3]:
        legal = table.legal()
        pick = next((a for a in legal if a["card"] == "T18"), legal[0])
        table.act(table.turn, pick)
    for viewer in (0, 1, 2, None):
        assert table.view(viewer)["partner"] == 3 and table.view(viewer)["partner_public"]


def test_samples_respect_shown_voids():
    table = _call_table()
    table.act(2, {"type": "discard", "cards": ["7B", "6B", "5B"]})
    table.say("no_scommessa", "no_rivanto", "no_rivanto", "no_rivanto")
    voids = set()
    for _ in range(40):
        if table.state.phase != "play":
            break
        trick = table.state.trick
        legal = table.legal()
        action = legal[-1]
        seat = table.turn
        table.act(seat, action)
        led = next((SUIT_OF[c] for _, c in trick if c != "FUG"), None)
        if led and action["card"] != "FUG" and SUIT_OF[action["card"]] != led:
            voids.add((seat, led))
        for viewer in (0, 1, 2, 3):
            for sampled in _samples(table, viewer, n=3):
                for void_seat, suit in voids:
                    assert all(SUIT_OF[c] != suit for c in sampled.hands[void_seat])
    assert voids  # the scenario did show some voids


def test_forced_call_samples_keep_giove_with_the_caller():
    table = Table([arrange(0, {3: ["T20", "T19"], 0: ["T17"]}, ["T18", "4D", "5D"])], dealer=0)
    table.say(*["pass"] * 8)
    assert table.view(1)["forced"] and table.view(1)["declarer"] == 3
    samples = _samples(table, 1)
    assert all({"T20", "T18"} <= set(s.hands[3]) for s in samples)  # Giove announced, T18 shown in the monte
    assert not all("T19" in s.hands[3] for s in samples)  # T19 is still unknown to seat 1
    table.act(3, table.legal()[0])
    assert table.view(1)["called"] == "T17"  # so the caller held T19 too
    assert all({"T20", "T19", "T18"} <= set(s.hands[3]) for s in _samples(table, 1))
    assert {s.deal.partner for s in _samples(table, 1)} == {0, 2}
