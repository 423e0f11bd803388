"""The fold step: apply one recorded event to the state, with no validation and no randomness.

Every handler accepts data straight from JSON (lists, str keys) and builds tuples, so a log read back
from the database folds into a state equal to the live one. The rest use the keyword copiers `with_*` of
`state`; after them `evolve` builds the view frame again (`State.frame`), but for the events that change
nothing it shows or keep it in step themselves (`_FRAME_KEPT`). The two per-card handlers
(`play`, `trick`) build `State` positionally and keep the frame unless the card or the trick changes what
it shows.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import filterfalse
from typing import Any

from games.engine.protocol import Event
from games.engine.values import new

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
    with_deal,
    with_match,
    with_state,
)
from .view import view_frame


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
    """A packet dealt: of what views show without the viewer, only the stock's size changes."""
    seat, cards = data["seat"], data["cards"]
    hands = _set_hand(state.hands, seat, sort_cards(state.hands[seat] + tuple(cards)))
    deal = with_deal(state.deal, stock=tuple(filterfalse(set(cards).__contains__, state.deal.stock)))
    frame = state.frame
    if frame is not None:
        frame = frame.copy()
        frame["stock_count"] = len(deal.stock)
    return with_state(state, hands=hands, deal=deal, frame=frame)


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


# The two hottest handlers, a card played and a trick won, build the state positionally (`new`, field order):
# it is unpacked once and the hands are rebuilt through lists.
def _play(state: State, data: dict[str, Any]) -> State:
    seat, card = data["seat"], data["card"]
    match, deal, phase, _, hands, leader, trick, tricks, frame = state
    hand = [*hands[seat]]
    hand.remove(card)
    new_hands = [*hands]
    new_hands[seat] = tuple(hand)
    played = new(State, (match, deal, phase, (seat + 1) % PLAYERS, tuple(new_hands), leader, trick + ((seat, card),),
                         tricks, frame))
    if card == FUG:
        return _framed(with_state(played, deal=with_deal(deal, fug=(seat, len(tricks)))))
    if card == deal.called:
        return _framed(with_state(played, deal=with_deal(deal, partner_public=True)))
    return played


def _trick(state: State, data: dict[str, Any]) -> State:
    winner = data["winner"]
    match, deal, phase, _, hands, leader, trick, tricks, frame = state
    done = new(State, (match, deal, phase, winner, hands, winner, (), tricks + ((leader, trick, winner),), frame))
    return done if deal.fug is None else _framed(done)  # (a won trick may assign the Fuggitivo)


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


def _framed(state: State) -> State:
    """`state` with its view frame built again."""
    return with_state(state, frame=view_frame(state))


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
#: The events that change nothing a view frame shows (the phase, the turn, the dealer's peek), or keep it in
#: step themselves (a packet dealt).
_FRAME_KEPT = frozenset({"phase", "peek", "deal"})


def evolve(state: State | None, event: Event) -> State:
    """Fold one event (an unknown event type leaves the state unchanged)."""
    kind = event.type
    if kind == "play":
        return _play(state, event.data)  # type: ignore[arg-type]
    if kind == "trick":
        return _trick(state, event.data)  # type: ignore[arg-type]
    handler = _get(kind)
    if handler is None:
        return state  # type: ignore[return-value]
    if kind in _FRAME_KEPT:
        return handler(state, event.data)
    return _framed(handler(state, event.data))
