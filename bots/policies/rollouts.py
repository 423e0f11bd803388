"""Rollout policies for the search bot: how every seat plays inside a simulated deal.

A rollout must be cheap, because a search plays thousands of actions per decision, and faithful, because
a search only improves on the play its rollouts imitate: a random opponent never threatens anything and
makes every move look alike, and a crude stand-in misjudges what the real players do. The game's
heuristic bot plays the rollouts wherever it is fast enough (the patiences, whose rollouts are cut after
two turns, Muscio, and Machiavelli, whose one dear question, whether the hand can close, an exact sweep
answers instead of an integer programme: `machiavelli_turn`). Tarocchi's heuristic weighs every card
against what each seat may hold (about a tenth of a millisecond per card, ten times the glance), so the rollouts
of its card play play the cards at a glance (take the trick cheaply, feed a partner, else throw the cheapest card)
and leave bids and discards to the heuristic; the rollouts of a bid are the heuristic's throughout
(`FAITHFUL_WHEN`: the glance misjudges what a solo is worth).

Measured (docs/bots.md): greedy stand-ins for the patiences' turn planner and for Machiavelli's
hold-then-close rule misjudged so much that the search lost to the heuristic it was meant to improve.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bots.policies.machiavelli_partition import closing_action
from games.engine.protocol import JSON, Action
from games.rules.tarocchi_mineo.cards import FOOL, FUG, STRENGTH, SUIT_OF, TRUMP, VALUE

#: `(view, seat, legal_actions, rng) -> action`, like every policy.
Rollout = Callable[[JSON, int, list[Action], random.Random], Action]


def _tarocchi_power(card: str, led: str | None) -> int | None:
    if card == FUG:
        return None
    suit = SUIT_OF[card]
    if suit == TRUMP:
        return 1000 + STRENGTH[card]
    return STRENGTH[card] if suit == led else None


def _tarocchi_cost(card: str) -> float:
    """What a card gives away when it is lost: its points first, then its strength (keep the high ones)."""
    return VALUE.get(card, 0) * 100 + (1000 if SUIT_OF[card] == TRUMP else 0) + STRENGTH.get(card, 0)


def _tarocchi_team(view: JSON, seat: int) -> set[int]:
    """The seats known to play on `seat`'s side (itself at least)."""
    declarer, partner = view["declarer"], view["partner"]
    if declarer is None:
        return {seat}
    side = {declarer} if view["contract"] != "call" else {declarer, partner} - {None}
    if seat in side:
        return side
    if view["contract"] != "call" or partner is not None:
        return {0, 1, 2, 3} - side
    return {seat}


def tarocchi_trick(view: JSON, seat: int, legal: list[Action], rng: random.Random) -> Action | None:
    """A card play in one glance: lead the cheapest card; take the trick with the weakest card that beats
    it; give points to a partner who holds it; else throw the cheapest card. None outside the card play."""
    if view["phase"] != "play":
        return None
    cards = [action["card"] for action in legal]
    plays = view["trick"]
    choice = min(cards, key=_tarocchi_cost)
    if plays:
        led = next((SUIT_OF[card] for _, card in plays if card != FUG), None)
        winner, best = None, None
        for who, card in plays:
            power = _tarocchi_power(card, led)
            if power is not None and (best is None or power > best):
                winner, best = who, power
        if winner in _tarocchi_team(view, seat):
            plain = [card for card in cards if SUIT_OF[card] not in (TRUMP, FOOL)]
            choice = max(plain, key=lambda card: VALUE.get(card, 0)) if plain else choice
        else:
            beating = [(power, card) for card in cards
                       if (power := _tarocchi_power(card, led)) is not None and (best is None or power > best)]
            choice = min(beating)[1] if beating else choice
    return legal[cards.index(choice)]


def machiavelli_turn(view: JSON, seat: int, legal: list[Action], rng: random.Random) -> Action | None:
    """Machiavelli's heuristic, its dear part done fast: close when the table and the whole hand split into
    melds (an exact sweep, `machiavelli_partition`, instead of an integer programme per turn); else draw
    while the stock lasts, as the heuristic does. None (the heuristic's best lay-down) on an empty stock."""
    if view["opening"] or not view["hand"]:
        return None
    closing = closing_action(view["table"], view["hand"])
    if closing is not None:
        return closing
    return legal[0] if view["stock"] else None


def with_heuristic(fast: Callable[..., Action | None], heuristic: Rollout) -> Rollout:
    """`fast` where it answers (the play of the cards), the heuristic elsewhere (bids, discards)."""

    def choose(view: JSON, seat: int, legal: list[Action], rng: random.Random) -> Action:
        return fast(view, seat, legal, rng) or heuristic(view, seat, legal, rng)

    return choose


#: Kinds whose rollouts play the cards greedily and leave the rarer decisions (bids, discards) to the
#: heuristic bot; Machiavelli's answers the heuristic's every-turn closing question fast, exactly.
CARD_PLAY: dict[str, Callable[..., Action | None]] = {
    "tarocchi-mineo": tarocchi_trick,
    "machiavelli": machiavelli_turn,
}


#: Decisions whose rollouts the game's full heuristic plays, cheap stand-in or not. Tarocchi's bids: measured
#: on 62 auction decisions (40 sampled worlds each), the one-glance card play overrated a solo by about
#: 2.3 points per deal against the true deal played out by the heuristic, which it matched within 0.3
#: (docs/bots.md); a bid is worth the dearer rollouts (about ten times the one-glance ones).
FAITHFUL_WHEN: dict[str, Callable[[JSON], bool]] = {
    "tarocchi-mineo": lambda view: view["phase"] in ("stata", "auction"),
}

