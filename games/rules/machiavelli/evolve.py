"""The fold: one small pure function per event type, no validation, no randomness.

Events arrive either as `decide` built them or back from JSON storage (lists instead of tuples), so every
sequence is turned into a tuple here and the two paths give equal states. The events of a deal's set-up and
end change the state with `dataclasses.replace` (keywords); the three hottest (draw, pass, meld) build the
next state with the positional constructor, several times faster, sharing the match of the state before. Each keeps
the derived parts of the state in step: the rows of the hands and the facts of the table, which the
table of a meld event `decide` emitted carries (`tables.facts_of`).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from games.engine.cards import remove_cards
from games.engine.protocol import Event
from games.rules.machiavelli.cards import CODE, sort_cards
from games.rules.machiavelli.state import ROW_BIT, SUIT, Match, State, deal_scores, hand_rows
from games.rules.machiavelli.tables import NO_FACTS, TableLists, facts_of

_CODE_OF = CODE.__getitem__


def _setup(state: State | None, data: dict) -> State:
    seats, options = data["seats"], data["options"]
    match = Match(
        seats=seats,
        options=tuple(sorted(options.items())),
        deals=options["deals"],
        unit=options["unit"],
        penalty=options["failed_operation"] == "penalty",
        scores=(Fraction(0),) * seats,
    )
    return State(match, hands=((),) * seats, rows=(0,) * 4 * seats)


def _first_dealer(state: State, data: dict) -> State:
    return replace(state, match=replace(state.match, dealer=data["seat"]))


def _deal_start(state: State, data: dict) -> State:
    seats = state.match.seats
    dealer = data["dealer"]
    match = replace(state.match, deal_no=data["deal"], dealer=dealer)
    return State(match, (dealer + 1) % seats, True, 0, ((),) * seats, (), (), (0,) * 4 * seats, NO_FACTS)


def _shuffle(state: State, data: dict) -> State:
    return replace(state, stock=tuple(data["cards"]))


def _deal_hand(state: State, data: dict) -> State:
    seat, cards = data["seat"], data["cards"]
    hands = list(state.hands)
    hands[seat] = sort_cards(cards)
    rows = list(state.rows)
    rows[4 * seat : 4 * seat + 4] = hand_rows(cards)
    return replace(state, hands=tuple(hands), stock=remove_cards(state.stock, cards), rows=tuple(rows))


# The three hottest handlers (a draw, a pass, a meld) build the state positionally, in field order.
def _draw(state: State, data: dict) -> State:
    seat, cards = data["seat"], data["cards"]
    hands = [*state.hands]  # (copies built without a call)
    hand = [*hands[seat]]
    rows = [*state.rows]
    first = 4 * seat
    for card in cards:
        insort(hand, card, key=_CODE_OF)
        rows[first + SUIT[card]] |= ROW_BIT[card]
    hands[seat] = tuple(hand)
    match = state.match
    return State(match, (seat + 1) % match.seats, False, 0, tuple(hands), state.stock[len(cards) :], state.table,
                 tuple(rows), state.facts)


def _pass(state: State, data: dict) -> State:
    match = state.match
    return State(match, (data["seat"] + 1) % match.seats, state.opening, state.passes + 1, state.hands, state.stock,
                 state.table, state.rows, state.facts)


def _meld(state: State, data: dict) -> State:
    seat, added, lists = data["seat"], data["added"], data["table"]
    # `facts_of`, inlined: the facts the event's lists carry (a stored event's are worked out)
    after = (lists.table, lists.infos, lists, lists.in_order) if type(lists) is TableLists else facts_of(lists)
    hands = [*state.hands]
    hand = [*hands[seat]]
    rows = [*state.rows]
    first = 4 * seat
    for card in added:
        hand.remove(card)
        if card not in hand:  # the last copy
            rows[first + SUIT[card]] &= ~ROW_BIT[card]
    hands[seat] = tuple(hand)
    match = state.match
    return State(match, (seat + 1) % match.seats, state.opening, 0, tuple(hands), state.stock, after[0], tuple(rows),
                 after)


def _meld_failed(state: State, data: dict) -> State:
    return state  # the draw or pass that follows carries the consequence


def _deal_end(state: State, data: dict) -> State:
    m = state.match
    left = data["cards_left"]
    cards_left = tuple(left[str(seat)] for seat in range(m.seats))
    closer = data["closer"]
    gained = deal_scores(cards_left, closer, m.unit)
    match = replace(m, scores=tuple(a + b for a, b in zip(m.scores, gained, strict=True)),
                    history=(*m.history, (closer, data["blocked"], cards_left)), over=data["match_over"])
    return replace(state, match=match, turn=-1)


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
    kind = event.type
    if kind == "draw":  # the most frequent
        return _draw(state, event.data)  # type: ignore[arg-type]
    step = _FOLD.get(kind)
    if step is None:
        return state  # type: ignore[return-value]
    return step(state, event.data)  # type: ignore[arg-type]
