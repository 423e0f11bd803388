"""Properties over many random deals: every scored deal counts 109 points and every settlement sums to zero."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.runner import fold
from games.rules.tarocchi_mineo import ENGINE
from games.rules.tarocchi_mineo.cards import DECK
from games.rules.tarocchi_mineo.rules import play_error
from games.rules.tarocchi_mineo.scoring import card_points, thirds

from .table import Table


def _policy(rng: random.Random, state, legal: list[dict]) -> dict:
    """Random, but passing often enough in the stata round that calls and full-deal solos happen."""
    if state.phase == "stata" and rng.random() < 0.85:
        return {"type": "pass"}
    return rng.choice(legal)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), policy=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3))
def test_random_matches_count_109_per_deal_and_settle_to_zero(seed, policy, dealer):
    table = Table(seed=f"{seed:064x}", dealer=dealer, deals=4)
    rng = random.Random(policy)
    while ENGINE.result(table.state) is None:
        state, legal = table.state, table.legal()
        if state.phase == "play":  # the fast validation agrees with the list of legal cards
            hand, allowed = state.hands[state.turn], {a["card"] for a in legal}
            assert all((play_error(hand, state.trick, card) is None) == (card in allowed) for card in hand)
        table.act(table.turn, _policy(rng, state, legal))
        assert Counter(ENGINE.all_cards(table.state)) == Counter(DECK)
    result = ENGINE.result(table.state)
    assert len(result["deals"]) == 4
    for summary in result["deals"]:
        assert sum(summary["scores"].values()) == 0
        if summary["type"] == "annulled":
            assert set(summary["scores"].values()) == {0}
            continue
        assert sum(summary["totals"].values()) == 109
        assert sum(summary["card_points"].values()) == 104
        jochi = summary["jochi"]
        assert summary["difference"] == abs(jochi["declarer"] - jochi["opponents"])
        detail = summary["jochi_detail"]
        assert detail["declarer"]["rimatura"] + detail["opponents"]["rimatura"] == 1
        stake = {"call": 1, "solo": 3, "forced_solo": 3, "stata": 6}[summary["type"]]
        assert abs(summary["scores"][str(summary["declarer"])]) == stake * summary["difference"]
    assert sum(result["scores"].values()) == 0
    rebuilt = fold(ENGINE, [_json(e) for e in table.log])
    assert rebuilt.state == table.state


def _json(event):
    from games.engine.protocol import Event

    return Event(event.type, json.loads(json.dumps(event.data)), event.public, event.visible_to, event.actor)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.booleans(), min_size=63, max_size=63))
def test_any_split_of_the_deck_counts_104_card_points(mask):
    side_a = [card for card, mine in zip(DECK, mask, strict=True) if mine]
    side_b = [card for card, mine in zip(DECK, mask, strict=True) if not mine]
    assert thirds(side_a) + thirds(side_b) == 312
    assert card_points(side_a) + card_points(side_b) == 104


def test_every_deal_type_occurs_in_random_play():
    seen = Counter()
    for seed in range(30):
        table = Table(seed=f"{seed + 1000:064x}", dealer=seed % 4, deals=4)
        rng = random.Random(seed)
        while ENGINE.result(table.state) is None:
            table.act(table.turn, _policy(rng, table.state, table.legal()))
        seen.update(summary["type"] for summary in table.state.match.history)
    assert {"call", "solo", "stata"} <= set(seen)
