"""The pure fold step: one event in, the next state out. No validation, no randomness.

Every handler reads only `event.data` (which may come back from JSON, so lists are turned into tuples).
Phase changes are decided here from the state, so a replayed log reaches exactly the live state.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain, filterfalse
from typing import Any

from games.engine.protocol import Event
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
    make_state,
)

Data = dict[str, Any]
_new_tuple = tuple.__new__
#: Positions of the `Deal` fields the fold changes: it rebuilds a deal from the list of its values (a third
#: of what `Deal._replace` costs, and deals change several times per hand).
(_TURNUP, _TRUMP, _TURNUP_TAKEN, _BLINDE, _STOCK, _DEAD, _DECLARATIONS, _BLINDE_TAKER, _EXCHANGED, _PARTICIPANTS,
 _LEADER, _FORFEIT_ORDER, _FORFEIT_DECLINED, _FORFEITER, _GATTA, _DEALER) = map(Deal._fields.index, (
    "turnup", "trump", "turnup_taken", "blinde", "stock", "dead", "declarations", "blinde_taker", "exchanged",
    "participants", "leader", "forfeit_order", "forfeit_declined", "forfeiter", "gatta", "dealer"))


def _set(items: tuple, index: int, value: Any) -> tuple:
    changed = [*items]
    changed[index] = value
    return tuple(changed)


def _state(state: State, deal: list, phase: str, turn: int | None, hands: tuple | None = None) -> State:
    """The state with a new deal (given as the list of its values), phase and turn, and hands when given:
    the steps of the set-up, declarations, exchange and forfeit."""
    match, _, _, _, old_hands, trick, history, won = state
    deal = _new_tuple(Deal, deal)
    return _new_tuple(State, (match, deal, phase, turn, old_hands if hands is None else hands, trick, history, won))


def _match_started(state: State | None, data: Data) -> State:
    players = data["players"]
    match = Match(players, data["max_hands"], (START_SCORE,) * players, 0, None, None)
    return make_state(match, empty_deal(players, data["dealer"]), DEALING, None, ((),) * players, (), (),
                      (0,) * players)


def _hand_started(state: State, data: Data) -> State:
    players, max_hands, scores, _, last_hand, result = state.match
    match = _new_tuple(Match, (players, max_hands, scores, data["hand"], last_hand, result))
    return make_state(match, empty_deal(players, data["dealer"]), DEALING, None, ((),) * players, (), (),
                      (0,) * players)


# The deal's own steps (once a hand each) rebuild the state inline: a helper call costs a good part of them.
def _shuffle(state: State, data: Data) -> State:
    match, deal, phase, turn, hands, trick, history, won = state
    deal = [*deal]
    deal[_STOCK] = tuple(data["cards"])
    return _new_tuple(State, (match, _new_tuple(Deal, deal), phase, turn, hands, trick, history, won))


def _dealt(state: State, data: Data) -> State:
    """A hand dealt from the stock; the stock itself is trimmed once, at the turn-up (end of the deal)."""
    match, deal, phase, turn, hands, trick, history, won = state
    held = [*hands]
    held[data["seat"]] = tuple(data["cards"])
    return _new_tuple(State, (match, deal, phase, turn, tuple(held), trick, history, won))


def _blinde_dealt(state: State, data: Data) -> State:
    match, deal, phase, turn, hands, trick, history, won = state
    deal = [*deal]
    deal[_BLINDE] = tuple(data["cards"])
    return _new_tuple(State, (match, _new_tuple(Deal, deal), phase, turn, hands, trick, history, won))


def _turn_up(state: State, data: Data) -> State:
    card = data["card"]
    deal = [*state.deal]
    deal[_TURNUP] = card
    deal[_TRUMP] = data["trump"]
    dealer = deal[_DEALER]
    deal[_STOCK] = _undealt(deal[_STOCK], state.hands, deal[_BLINDE], card, dealer)
    return _state(state, deal, DECLARE, (dealer + 1) % state.match.players)


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
    match, deal, _, _, hands, trick, history, won = state
    deal = [*deal]
    declarations = deal[_DECLARATIONS] = _set(deal[_DECLARATIONS], seat, choice)
    if choice == PASS:
        deal[_DEAD] = _set(deal[_DEAD], seat, hands[seat])
        hands = _set(hands, seat, ())
    elif choice == BLINDE:
        deal[_BLINDE_TAKER] = seat
    players = match.players
    if seat != deal[_DEALER]:  # the next player declares (the dealer declares last)
        phase, turn = DECLARE, (seat + 1) % players
    else:
        first = seat + 1
        order = [(first + k) % players for k in range(players)]
        deal[_PARTICIPANTS] = tuple([s for s in order if declarations[s] == PLAY or declarations[s] == BLINDE])
        phase, turn = (EXCHANGE, seat) if choice == PLAY else (CHECK, None)
    return _new_tuple(State, (match, _new_tuple(Deal, deal), phase, turn, hands, trick, history, won))


def _blinde_taken(state: State, data: Data) -> State:
    seat = data["seat"]
    hands = state.hands
    deal = [*state.deal]
    deal[_DEAD] = _set(deal[_DEAD], seat, hands[seat])
    deal[_BLINDE] = ()
    return _state(state, deal, state.phase, state.turn, _set(hands, seat, tuple(data["cards"])))


def _exchanged(state: State, data: Data) -> State:
    seat, card = data["seat"], data["card"]
    deal = [*state.deal]
    hand = tuple([c for c in state.hands[seat] if c != card]) + (deal[_TURNUP],)
    deal[_DEAD] = _set(deal[_DEAD], seat, deal[_DEAD][seat] + (card,))
    deal[_TURNUP_TAKEN] = True
    deal[_EXCHANGED] = True
    return _state(state, deal, CHECK, None, _set(state.hands, seat, hand))


def _no_exchange(state: State, data: Data) -> State:
    deal = [*state.deal]
    deal[_EXCHANGED] = False
    return _state(state, deal, CHECK, None)


def _gatta(state: State, data: Data) -> State:
    deal = [*state.deal]
    deal[_GATTA] = tuple([(h["seat"], tuple(h["cards"]), h["value"]) for h in data["holders"]])
    return _state(state, deal, HAND_DONE, None)


def _ready(state: State, data: Data) -> State:
    leader, asked = data["leader"], tuple(data["forfeit_order"])
    deal = [*state.deal]
    deal[_LEADER] = leader
    deal[_FORFEIT_ORDER] = asked
    if asked:
        return _state(state, deal, FORFEIT, asked[0])
    return _state(state, deal, PLAYING, leader)


def _forfeit(state: State, data: Data) -> State:
    seat = data["seat"]
    deal = [*state.deal]
    if data["forfeit"]:
        deal[_FORFEITER] = seat
        deal[_FORFEIT_ORDER] = ()
        return _state(state, deal, HAND_DONE, None)
    rest = deal[_FORFEIT_ORDER] = deal[_FORFEIT_ORDER][1:]
    deal[_FORFEIT_DECLINED] += (seat,)
    if rest:
        return _state(state, deal, FORFEIT, rest[0])
    return _state(state, deal, PLAYING, deal[_LEADER])


def _played(state: State, data: Data) -> State:
    # The hottest handler: the state is unpacked once and the tuples are rebuilt through lists.
    seat, card = data["seat"], data["card"]
    match, deal, _, _, hands, trick, history, won = state
    hand = [*hands[seat]]
    hand.remove(card)
    new_hands = [*hands]
    new_hands[seat] = tuple(hand)
    trick += ((seat, card, data["face_down"]),)
    ring = deal.participants
    if len(trick) == len(ring):
        return _new_tuple(State, (match, deal, TRICK_DONE, None, tuple(new_hands), trick, history, won))
    after = ring.index(seat) + 1  # the next participant clockwise (the ring is stored clockwise)
    turn = ring[after] if after < len(ring) else ring[0]
    return _new_tuple(State, (match, deal, PLAYING, turn, tuple(new_hands), trick, history, won))


def _trick_won(state: State, data: Data) -> State:
    winner = data["winner"]
    match, deal, _, _, hands, trick, history, won = state
    tally = [*won]
    tally[winner] += 1
    history += ((trick, winner),)
    if len(history) == TRICKS:
        return _new_tuple(State, (match, deal, HAND_DONE, None, hands, (), history, tuple(tally)))
    return _new_tuple(State, (match, deal, PLAYING, winner, hands, (), history, tuple(tally)))


def _hand_scored(state: State, data: Data) -> State:
    scores = data["scores"]
    match, deal, _, _, hands, trick, history, won = state
    players, max_hands, _, hand_no, _, result = match
    match = _new_tuple(Match, (players, max_hands, tuple(map(scores.__getitem__, SEAT_KEYS[:players])), hand_no, data,
                               result))
    return _new_tuple(State, (match, deal, SCORED, None, hands, trick, history, won))


def _match_over(state: State, data: Data) -> State:
    old = state.match
    match = Match(old.players, old.max_hands, old.scores, old.hand_no, old.last_hand, data)
    return make_state(match, state.deal, OVER, None, state.hands, state.trick, state.history, state.won)


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
