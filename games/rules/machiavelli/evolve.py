"""The fold: one small pure function per event type, no validation, no randomness.

Events arrive either as `decide` built them or back from JSON storage (lists instead of tuples), so every
sequence is turned into a tuple here and the two paths give equal states. The frequent events (draw, pass,
meld) build the next state with the positional constructor, several times faster than
`dataclasses.replace`; the field order is `State`'s.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from games.engine.cards import remove_cards
from games.engine.protocol import Event
from games.rules.machiavelli.cards import CODE, sort_cards
from games.rules.machiavelli.state import State, deal_scores


def _setup(state: State | None, data: dict) -> State:
    seats, options = data["seats"], data["options"]
    return State(
        seats=seats,
        options=tuple(sorted(options.items())),
        deals=options["deals"],
        unit=options["unit"],
        penalty=options["failed_operation"] == "penalty",
        hands=((),) * seats,
        scores=(Fraction(0),) * seats,
    )


def _first_dealer(state: State, data: dict) -> State:
    return replace(state, dealer=data["seat"])


def _deal_start(state: State, data: dict) -> State:
    dealer = data["dealer"]
    return replace(
        state,
        deal_no=data["deal"],
        dealer=dealer,
        turn=(dealer + 1) % state.seats,
        opening=True,
        passes=0,
        hands=((),) * state.seats,
        stock=(),
        table=(),
    )


def _shuffle(state: State, data: dict) -> State:
    return replace(state, stock=tuple(data["cards"]))


def _deal_hand(state: State, data: dict) -> State:
    seat, cards = data["seat"], data["cards"]
    hands = list(state.hands)
    hands[seat] = sort_cards(cards)
    return replace(state, hands=tuple(hands), stock=remove_cards(state.stock, cards))


def _draw(state: State, data: dict) -> State:
    seat, cards = data["seat"], data["cards"]
    hands = list(state.hands)
    hand = list(hands[seat])
    for card in cards:
        insort(hand, card, key=CODE.__getitem__)
    hands[seat] = tuple(hand)
    s = state
    return State(s.seats, s.options, s.deals, s.unit, s.penalty, s.deal_no, s.dealer, (seat + 1) % s.seats,
                 False, 0, tuple(hands), s.stock[len(cards) :], s.table, s.scores, s.history, s.over)


def _pass(state: State, data: dict) -> State:
    s = state
    return State(s.seats, s.options, s.deals, s.unit, s.penalty, s.deal_no, s.dealer, (data["seat"] + 1) % s.seats,
                 s.opening, s.passes + 1, s.hands, s.stock, s.table, s.scores, s.history, s.over)


def _meld(state: State, data: dict) -> State:
    seat = data["seat"]
    hands = list(state.hands)
    hands[seat] = remove_cards(hands[seat], data["added"])
    s = state
    return State(s.seats, s.options, s.deals, s.unit, s.penalty, s.deal_no, s.dealer, (seat + 1) % s.seats,
                 s.opening, 0, tuple(hands), s.stock, tuple(map(tuple, data["table"])), s.scores, s.history, s.over)


def _meld_failed(state: State, data: dict) -> State:
    return state  # the draw or pass that follows carries the consequence


def _deal_end(state: State, data: dict) -> State:
    left = data["cards_left"]
    cards_left = tuple(left[str(seat)] for seat in range(state.seats))
    closer = data["closer"]
    gained = deal_scores(cards_left, closer, state.unit)
    return replace(
        state,
        turn=-1,
        scores=tuple(a + b for a, b in zip(state.scores, gained, strict=True)),
        history=(*state.history, (closer, data["blocked"], cards_left)),
        over=data["match_over"],
    )


_FOLD: dict[str, Callable[[State, dict], State]] = {
    "setup": _setup,
    "first_dealer": _first_dealer,
    "deal_start": _deal_start,
    "shuffle": _shuffle,
    "deal_hand": _deal_hand,
    "draw": _draw,
    "pass": _pass,
    "meld": _meld,
    "meld_failed": _meld_failed,
    "deal_end": _deal_end,
}


def evolve(state: State | None, event: Event) -> State:
    """Apply one event; unknown event types leave the state as it is."""
    step = _FOLD.get(event.type)
    if step is None:
        return state  # type: ignore[return-value]
    return step(state, event.data)  # type: ignore[arg-type]
