"""The fold step: apply one recorded event to the state, with no validation and no randomness.

Every handler accepts data straight from JSON (lists, str keys) and builds tuples, so a log read back
from the database folds into a state equal to the live one. The per-card handlers (`play`, `trick`)
build `State` positionally; the rest use the fast `with_*` copiers of `state`.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import filterfalse
from typing import Any

from games.engine.protocol import Event

from .cards import FUG, sort_cards
from .state import (
    DEALING,
    EMPTY_HANDS,
    NOBODY,
    OVER,
    PLAY,
    PLAYERS,
    Deal,
    Match,
    State,
    build_state,
    with_deal,
    with_match,
    with_state,
)


def _holder(hands: tuple[tuple[str, ...], ...], card: str | None) -> int:
    if card is None:
        return NOBODY
    for seat, hand in enumerate(hands):
        if card in hand:
            return seat
    return NOBODY


def _set_hand(hands: tuple[tuple[str, ...], ...], seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return hands[:seat] + (hand,) + hands[seat + 1 :]


def _match_start(state: State | None, data: dict[str, Any]) -> State:
    match = Match(deals=data["deals"], deal_no=0, dealer=NOBODY, scores=(0,) * PLAYERS, history=())
    return State(match=match, deal=Deal(), phase=DEALING, turn=NOBODY, hands=EMPTY_HANDS)


def _first_dealer(state: State, data: dict[str, Any]) -> State:
    return with_state(state, match=with_match(state.match, dealer=data["seat"]))


def _shuffle(state: State, data: dict[str, Any]) -> State:
    return State(state.match, Deal(stock=tuple(data["cards"])), DEALING, NOBODY, EMPTY_HANDS)


def _deal(state: State, data: dict[str, Any]) -> State:
    seat, cards = data["seat"], data["cards"]
    hands = _set_hand(state.hands, seat, sort_cards(state.hands[seat] + tuple(cards)))
    deal = with_deal(state.deal, stock=tuple(filterfalse(set(cards).__contains__, state.deal.stock)))
    return with_state(state, hands=hands, deal=deal)


def _peek(state: State, data: dict[str, Any]) -> State:
    return with_state(state, deal=with_deal(state.deal, peek=data["card"]))


def _phase(state: State, data: dict[str, Any]) -> State:
    turn = data["turn"]
    if data["phase"] == PLAY:
        return with_state(state, phase=PLAY, turn=turn, leader=turn)
    return with_state(state, phase=data["phase"], turn=turn)


def _bid(state: State, data: dict[str, Any]) -> State:
    seat, bid = data["seat"], data["bid"]
    deal = state.deal
    if data["round"] == "stata":
        deal = with_deal(deal, stata_bids=deal.stata_bids + ((seat, bid),))
    elif bid == "call":
        deal = with_deal(deal, bids=deal.bids + ((seat, bid),), call=(seat, data["called"]))
    else:
        deal = with_deal(deal, bids=deal.bids + ((seat, bid),))
    return with_state(state, deal=deal, turn=(seat + 1) % PLAYERS)


def _contract(state: State, data: dict[str, Any]) -> State:
    called = data["called"]
    deal = with_deal(
        state.deal,
        declarer=data["declarer"],
        contract=data["contract"],
        forced=data["forced"],
        called=called,
        partner=_holder(state.hands, called),
    )
    return with_state(state, deal=deal)


def _monte(state: State, data: dict[str, Any]) -> State:
    seat, cards = data["seat"], tuple(data["cards"])
    hands = _set_hand(state.hands, seat, sort_cards(state.hands[seat] + cards))
    return with_state(state, hands=hands, deal=with_deal(state.deal, stock=(), monte=cards, peek=None))


def _forced_solo(state: State, data: dict[str, Any]) -> State:
    return with_state(state, deal=with_deal(state.deal, contract="forced_solo", partner=NOBODY))


def _discard(state: State, data: dict[str, Any]) -> State:
    seat, cards = data["seat"], tuple(data["cards"])
    hand = tuple(card for card in state.hands[seat] if card not in cards)
    return with_state(state, hands=_set_hand(state.hands, seat, hand), deal=with_deal(state.deal, discard=cards))


def _called(state: State, data: dict[str, Any]) -> State:
    card = data["card"]
    return with_state(state, deal=with_deal(state.deal, called=card, partner=_holder(state.hands, card)))


def _commit(state: State, data: dict[str, Any]) -> State:
    seat = data["seat"]
    deal = with_deal(state.deal, commits=state.deal.commits + ((seat, data["commitment"]),))
    return with_state(state, deal=deal, turn=(seat + 1) % PLAYERS)


def _play(state: State, data: dict[str, Any]) -> State:
    # The hottest handler: the state is unpacked once and the hands rebuilt through lists.
    seat, card = data["seat"], data["card"]
    match, deal, phase, _, hands, leader, trick, tricks = state
    if card == FUG:
        deal = with_deal(deal, fug=(seat, len(tricks)))
    elif card == deal.called:
        deal = with_deal(deal, partner_public=True)
    hand = [*hands[seat]]
    hand.remove(card)
    new_hands = [*hands]
    new_hands[seat] = tuple(hand)
    return build_state(match, deal, phase, (seat + 1) % PLAYERS, tuple(new_hands), leader, trick + ((seat, card),),
                       tricks)


def _trick(state: State, data: dict[str, Any]) -> State:
    winner = data["winner"]
    match, deal, phase, _, hands, leader, trick, tricks = state
    return build_state(match, deal, phase, winner, hands, winner, (), tricks + ((leader, trick, winner),))


def _finish_deal(state: State, summary: dict[str, Any], deal: Deal) -> State:
    match = state.match
    scores = tuple(match.scores[s] + summary["scores"][str(s)] for s in range(PLAYERS))
    match = Match(match.deals, match.deal_no + 1, (match.dealer + 1) % PLAYERS, scores, match.history + (summary,))
    return with_state(state, match=match, deal=deal, phase=DEALING, turn=NOBODY)


def _deal_scored(state: State, data: dict[str, Any]) -> State:
    return _finish_deal(state, data, state.deal)


def _deal_annulled(state: State, data: dict[str, Any]) -> State:
    # The monte is shown to prove that Giove lies in it; the hands stay secret.
    deal = with_deal(state.deal, monte=tuple(data["monte"]), peek=None)
    return _finish_deal(state, data["summary"], deal)


def _match_end(state: State, data: dict[str, Any]) -> State:
    return with_state(state, phase=OVER, turn=NOBODY)


HANDLERS: dict[str, Callable[[Any, dict[str, Any]], State]] = {
    "match_start": _match_start,
    "first_dealer": _first_dealer,
    "shuffle": _shuffle,
    "deal": _deal,
    "peek": _peek,
    "phase": _phase,
    "bid": _bid,
    "contract": _contract,
    "monte": _monte,
    "forced_solo": _forced_solo,
    "discard": _discard,
    "called": _called,
    "commit": _commit,
    "play": _play,
    "trick": _trick,
    "deal_scored": _deal_scored,
    "deal_annulled": _deal_annulled,
    "match_end": _match_end,
}
_get = HANDLERS.get


def evolve(state: State | None, event: Event) -> State:
    """Fold one event (an unknown event type leaves the state unchanged)."""
    handler = _get(event.type)
    if handler is None:
        return state  # type: ignore[return-value]
    return handler(state, event.data)
