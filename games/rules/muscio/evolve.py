"""The pure fold step: one event in, the next state out. No validation, no randomness.

Every handler reads only `event.data` (which may come back from JSON, so lists are turned into tuples).
Phase changes are decided here from the state, so a replayed log reaches exactly the live state.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain, filterfalse
from typing import Any

from games.engine.protocol import Event
from games.engine.tricks import rotation
from games.engine.values import new
from games.rules.muscio.rules import legal_plays
from games.rules.muscio.state import (
    BLINDE,
    CHECK,
    DEALING,
    DECLARE,
    EXCHANGE,
    FORFEIT,
    HAND_DONE,
    OVER,
    PASS,
    PLAY,
    PLAYING,
    SCORED,
    SEAT_KEYS,
    START_SCORE,
    TRICK_DONE,
    TRICKS,
    Deal,
    Match,
    State,
    empty_deal,
    with_match,
    with_state,
)
from games.rules.muscio.view import DEAL_SHOWN, MATCH_SHOWN, reframe, view_frame

Data = dict[str, Any]


def _set(items: tuple, index: int, value: Any) -> tuple:
    changed = [*items]
    changed[index] = value
    return tuple(changed)


# The deal's and the match's own steps go through `_with_deal` and `_with_match`: keyword changes, applied in
# one pass to the deal (or match) and to the view frame that follows it (`view.reframe`), the state rebuilt
# positionally (a deal changes about once per step).
def _with_deal(state: State, changed: dict[str, Any], phase: str, turn: int | None, hands: tuple | None = None
               ) -> State:
    """The state with the deal fields `changed` (name -> value), `phase`, `turn` and `hands` when given."""
    match, deal, _, _, old_hands, trick, history, won, frame, _ = state
    values = [*deal]
    frame = frame.copy()
    for name, value in changed.items():
        values[_DEAL_INDEX[name]] = value
        key, show = DEAL_SHOWN[name]
        frame[key] = show(value)
    deal = new(Deal, values)
    hands = old_hands if hands is None else hands
    legal = legal_plays(deal, hands[turn], trick, len(history)) if phase == PLAYING else None
    return new(State, (match, deal, phase, turn, hands, trick, history, won, frame, legal))


def _with_match(state: State, changed: dict[str, Any], phase: str, turn: int | None) -> State:
    """The state with the match fields `changed` (name -> value), `phase` and `turn`."""
    return with_state(state, match=with_match(state.match, **changed), phase=phase, turn=turn,
                      frame=reframe(state.frame, MATCH_SHOWN, changed))


_DEAL_INDEX = {name: index for index, name in enumerate(Deal._fields)}


def _new_hand(match: Match, dealer: int) -> State:
    """A hand about to be dealt: its set-up empty, the hands too."""
    players = match.players
    deal = empty_deal(players, dealer)
    return State(match, deal, DEALING, None, ((),) * players, (), (), (0,) * players, view_frame(match, deal))


def _match_started(state: State | None, data: Data) -> State:
    players = data["players"]
    return _new_hand(Match(players, data["max_hands"], (START_SCORE,) * players, 0, None, None), data["dealer"])


def _hand_started(state: State, data: Data) -> State:
    return _new_hand(with_match(state.match, hand_no=data["hand"]), data["dealer"])


def _shuffle(state: State, data: Data) -> State:
    return _with_deal(state, {"stock": tuple(data["cards"])}, state.phase, state.turn)


def _dealt(state: State, data: Data) -> State:
    """A hand dealt from the stock; the stock itself is trimmed once, at the turn-up (end of the deal)."""
    return with_state(state, hands=_set(state.hands, data["seat"], tuple(data["cards"])))


def _blinde_dealt(state: State, data: Data) -> State:
    return _with_deal(state, {"blinde": tuple(data["cards"])}, state.phase, state.turn)


def _turn_up(state: State, data: Data) -> State:
    card = data["card"]
    deal = state.deal
    dealer = deal.dealer
    stock = _undealt(deal.stock, state.hands, deal.blinde, card, dealer)
    changed = {"turnup": card, "trump": data["trump"], "stock": stock}
    return _with_deal(state, changed, phase=DECLARE, turn=(dealer + 1) % state.match.players)


def _undealt(stock: tuple[str, ...], hands: tuple, blinde: tuple[str, ...], turnup: str, dealer: int) -> tuple:
    """The stock without the cards dealt from it (the hands, the blinde, the turn-up).

    A deal takes the top of the stock in the order of MU-1, and a shuffle's cards all differ: when the top
    of the stock is that order, the rest is what follows it. Otherwise every dealt card is looked for.
    """
    dealt = (*chain.from_iterable(hands[dealer + 1:] + hands[:dealer]), *blinde, *hands[dealer], turnup)
    if stock[:len(dealt)] == dealt:
        return stock[len(dealt):]
    gone = set(dealt)
    return tuple(filterfalse(gone.__contains__, stock))


def _declared(state: State, data: Data) -> State:
    seat, choice = data["seat"], data["declaration"]
    deal, hands = state.deal, state.hands
    declarations = _set(deal.declarations, seat, choice)
    changed: dict[str, Any] = {"declarations": declarations}
    if choice == PASS:
        changed["dead"] = _set(deal.dead, seat, hands[seat])
        hands = _set(hands, seat, ())
    elif choice == BLINDE:
        changed["blinde_taker"] = seat
    players = state.match.players
    if seat != deal.dealer:  # the next player declares (the dealer declares last)
        phase, turn = DECLARE, (seat + 1) % players
    else:
        order = rotation(seat + 1, players)
        changed["participants"] = tuple([s for s in order if declarations[s] == PLAY or declarations[s] == BLINDE])
        phase, turn = (EXCHANGE, seat) if choice == PLAY else (CHECK, None)
    return _with_deal(state, changed, phase=phase, turn=turn, hands=hands)


def _blinde_taken(state: State, data: Data) -> State:
    seat = data["seat"]
    hands = state.hands
    changed = {"dead": _set(state.deal.dead, seat, hands[seat]), "blinde": ()}
    return _with_deal(state, changed, state.phase, state.turn, _set(hands, seat, tuple(data["cards"])))


def _exchanged(state: State, data: Data) -> State:
    seat, card = data["seat"], data["card"]
    deal = state.deal
    hand = tuple([c for c in state.hands[seat] if c != card]) + (deal.turnup,)
    changed = {"dead": _set(deal.dead, seat, deal.dead[seat] + (card,)), "turnup_taken": True, "exchanged": True}
    return _with_deal(state, changed, phase=CHECK, turn=None, hands=_set(state.hands, seat, hand))


def _no_exchange(state: State, data: Data) -> State:
    return _with_deal(state, {"exchanged": False}, phase=CHECK, turn=None)


def _gatta(state: State, data: Data) -> State:
    gatta = tuple([(h["seat"], tuple(h["cards"]), h["value"]) for h in data["holders"]])
    return _with_deal(state, {"gatta": gatta}, phase=HAND_DONE, turn=None)


def _ready(state: State, data: Data) -> State:
    leader, asked = data["leader"], tuple(data["forfeit_order"])
    changed = {"leader": leader, "forfeit_order": asked}
    if asked:
        return _with_deal(state, changed, phase=FORFEIT, turn=asked[0])
    return _with_deal(state, changed, phase=PLAYING, turn=leader)


def _forfeit(state: State, data: Data) -> State:
    seat = data["seat"]
    deal = state.deal
    if data["forfeit"]:
        return _with_deal(state, {"forfeiter": seat, "forfeit_order": ()}, phase=HAND_DONE, turn=None)
    rest = deal.forfeit_order[1:]
    changed = {"forfeit_order": rest, "forfeit_declined": deal.forfeit_declined + (seat,)}
    if rest:
        return _with_deal(state, changed, phase=FORFEIT, turn=rest[0])
    return _with_deal(state, changed, phase=PLAYING, turn=deal.leader)


# The two hottest handlers, a card played and a trick won, build the state positionally (`new`): the state is
# unpacked once and rebuilt in field order.
def _played(state: State, data: Data) -> State:
    seat, card = data["seat"], data["card"]
    match, deal, _, _, hands, trick, history, won, frame, _ = state
    hand = [*hands[seat]]
    hand.remove(card)
    new_hands = [*hands]
    new_hands[seat] = tuple(hand)
    trick += ((seat, card, data["face_down"]),)
    ring = deal.participants
    if len(trick) == len(ring):
        return new(State, (match, deal, TRICK_DONE, None, tuple(new_hands), trick, history, won, frame, None))
    after = ring.index(seat) + 1  # the next participant clockwise (the ring is stored clockwise)
    turn = ring[after] if after < len(ring) else ring[0]
    legal = legal_plays(deal, new_hands[turn], trick, len(history))
    return new(State, (match, deal, PLAYING, turn, tuple(new_hands), trick, history, won, frame, legal))


def _trick_won(state: State, data: Data) -> State:
    winner = data["winner"]
    match, deal, _, _, hands, trick, history, won, frame, _ = state
    tally = [*won]
    tally[winner] += 1
    history += ((trick, winner),)
    if len(history) == TRICKS:
        return new(State, (match, deal, HAND_DONE, None, hands, (), history, tuple(tally), frame, None))
    legal = legal_plays(deal, hands[winner], (), len(history))
    return new(State, (match, deal, PLAYING, winner, hands, (), history, tuple(tally), frame, legal))


def _hand_scored(state: State, data: Data) -> State:
    scores = tuple(map(data["scores"].__getitem__, SEAT_KEYS[:state.match.players]))
    return _with_match(state, {"scores": scores, "last_hand": data}, phase=SCORED, turn=None)


def _match_over(state: State, data: Data) -> State:
    return _with_match(state, {"result": data}, phase=OVER, turn=None)


HANDLERS: dict[str, Callable[[Any, Data], State]] = {
    "match_started": _match_started,
    "hand_started": _hand_started,
    "shuffle": _shuffle,
    "dealt": _dealt,
    "blinde_dealt": _blinde_dealt,
    "turn_up": _turn_up,
    "declared": _declared,
    "blinde_taken": _blinde_taken,
    "exchanged": _exchanged,
    "no_exchange": _no_exchange,
    "gatta": _gatta,
    "ready": _ready,
    "forfeit": _forfeit,
    "played": _played,
    "trick_won": _trick_won,
    "hand_scored": _hand_scored,
    "match_over": _match_over,
}


def evolve(state: State | None, event: Event) -> State:
    return HANDLERS[event.type](state, event.data)


def fold(state: State, events: list[Event]) -> State:
    """`state` after `events` (for `decide`, which must see the state its automatic steps act on)."""
    for event in events:
        state = HANDLERS[event.type](state, event.data)
    return state
