"""The Tarocchi parts of the search bot: which rollouts play which decisions, the stata left to the
heuristic, and the heuristic's faster counting (it must choose exactly as before: it is the opponent)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from bots.policies import make_policy
from bots.policies.heuristic import tarocchi_mineo as heuristic
from bots.policies.heuristic.tricks import Inference
from bots.policies.search import Search
from games.engine import registry
from games.engine.chance import Chance
from games.engine.runner import apply_action, begin
from games.rules.tarocchi_mineo.cards import SUIT_OF, SUITS, TRUMP, VALUE

ENGINE = registry.get("tarocchi-mineo")
HEURISTIC = make_policy("heuristic", ENGINE)


def _decisions(seed: int, deals: int = 4, wander: float = 0.3):
    """(position, seat, view, legal) of a match played by the heuristic, with some random cards thrown in
    so that the positions are not only the heuristic's own."""
    chance = Chance(f"{seed:064x}")
    pos, _ = begin(ENGINE, 4, ENGINE.normalize_options({"deals": deals}, 4), chance)
    rng = random.Random(seed)
    while ENGINE.result(pos.state) is None:
        seat = min(ENGINE.to_act(pos.state))
        view, legal = ENGINE.view(pos.state, seat), ENGINE.legal_actions(pos.state, seat)
        yield pos, seat, view, legal
        action = HEURISTIC(view, seat, legal, rng)
        if view["phase"] == "play" and rng.random() < wander:
            action = rng.choice(legal)
        pos, _ = apply_action(ENGINE, pos, seat, action, chance)


def _first(phase: str, seed: int = 5):
    return next((pos, seat, view, legal) for pos, seat, view, legal in _decisions(seed)
                if view["phase"] == phase and len(legal) > 1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_counted_beat_chances_equal_the_shared_estimate(seed):
    checked = 0
    for _, seat, view, _ in _decisions(seed):
        if view["phase"] != "play":
            continue
        facts = heuristic.inference(view, seat)
        assert isinstance(facts, heuristic._Inference)
        for other in facts.counts:
            for led in (*SUITS, TRUMP):
                power = heuristic._power_for(led)
                for key in (0, 105, 110, 1005, 1015, 1019):
                    fast = facts.beat_chance(other, key, led, power)
                    assert fast == Inference.beat_chance(facts, other, key, led, power)
                    checked += 1
    assert checked > 1000


def _plain_discard_score(hand: list[str], cards: list[str]) -> float:
    """The discard's score as first written (kept cards searched suit by suit)."""
    kept = [card for card in hand if card not in cards]
    banked = sum(VALUE.get(card, 0) for card in cards)
    emptied = sum(1 for suit in SUITS
                  if any(SUIT_OF[c] == suit for c in cards) and not any(SUIT_OF[c] == suit for c in kept))
    trumps = sum(2 * heuristic._card_weight(card) for card in cards if SUIT_OF[card] == TRUMP)
    return banked + heuristic.VOID_DISCARD * emptied - trumps


def test_the_counted_discard_chooses_as_the_plain_one():
    rng = random.Random(4)
    hands = [view["hand"] for seed in range(1, 6) for _, _, view, _ in _decisions(seed, wander=0.0)
             if view["phase"] == "discard"]
    assert hands
    for hand in hands:
        legal = [{"type": "discard", "cards": list(cards)} for cards in combinations(hand, 3)]
        rng.shuffle(legal)
        chosen = heuristic._discard({"hand": hand}, legal)
        assert chosen == max(legal, key=lambda action: _plain_discard_score(list(hand), action["cards"]))


def test_bids_are_rolled_out_by_the_heuristic_and_the_card_play_at_a_glance():
    search = Search(ENGINE, None, 2)
    _, seat, view, legal = _first("auction")
    search.choose(view, seat, legal, random.Random(1))
    assert search.policy is search.prior and search.rounds == 2
    _, seat, view, legal = _first("play")
    search.choose(view, seat, legal, random.Random(1))
    assert search.policy is search.fast and search.rounds == 2


def test_the_stata_is_left_to_the_heuristic():
    search = Search(ENGINE, None, 8)
    _, seat, view, legal = _first("stata")
    move = search.choose(view, seat, legal, random.Random(1))
    assert move == HEURISTIC(view, seat, legal, random.Random(1))
    assert search.rounds == 0
