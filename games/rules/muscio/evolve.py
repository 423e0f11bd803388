"""The pure fold step: one event in, the next state out. No validation, no randomness.

Every handler reads only `event.data` (which may come back from JSON, so lists are turned into tuples).
Phase changes are decided here from the state, so a replayed log reaches exactly the live state.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import filterfalse
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
    deal_with,
    empty_deal,
    make_state,
)

Data = dict[str, Any]
_new_tuple = tuple.__new__


def _without(cards: tuple[str, ...], gone: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """`cards` minus `gone`, in order (filtered without a Python-level loop: it runs on every deal)."""
    return tuple(filterfalse(set(gone).__contains__, cards))


def _set(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def _with(state: State, deal: Deal, phase: str, turn: int | None, hands: tuple | None = None) -> State:
    """The state with a new deal, phase and turn (and hands): the steps of the set-up and declarations."""
    match, _, _, _, old_hands, trick, history, won = state
    return _new_tuple(State, (match, deal, phase, turn, old_hands if hands is None else hands, trick, history, won))


def _match_started(state: State | None, data: Data) -> State:
    players = data["players"]
    match = Match(players, data["max_hands"], (START_SCORE,) * players, 0, None, None)
    return make_state(match, empty_deal(players, data["dealer"]), DEALING, None, ((),) * players, (), (),
                      (0,) * players)


def _hand_started(state: State, data: Data) -> State:
    players = state.match.players
    match = state.match
    match = Match(players, match.max_hands, match.scores, data["hand"], match.last_hand, match.result)
    return make_state(match, empty_deal(players, data["dealer"]), DEALING, None, ((),) * players, (), (),
                      (0,) * players)


def _shuffle(state: State, data: Data) -> State:
    return _with(state, deal_with(state.deal, stock=tuple(data["cards"])), state.phase, state.turn)


def _dealt(state: State, data: Data) -> State:
    """A hand dealt from the stock; the stock itself is trimmed once, at the turn-up (end of the deal)."""
    return _with(state, state.deal, state.phase, state.turn, _set(state.hands, data["seat"], tuple(data["cards"])))


def _blinde_dealt(state: State, data: Data) -> State:
    return _with(state, deal_with(state.deal, blinde=tuple(data["cards"])), state.phase, state.turn)


def _turn_up(state: State, data: Data) -> State:
    card = data["card"]
    deal = state.deal
    dealt = [card, *deal.blinde]
    for hand in state.hands:
        dealt.extend(hand)
    deal = deal_with(deal, turnup=card, trump=data["trump"], stock=_without(deal.stock, dealt))
    return _with(state, deal, DECLARE, (deal.dealer + 1) % state.match.players)


def _declared(state: State, data: Data) -> State:
    seat, choice = data["seat"], data["declaration"]
    deal = state.deal
    hands = state.hands
    declarations = _set(deal.declarations, seat, choice)
    if choice == PASS:
        deal = deal_with(deal, declarations=declarations, dead=_set(deal.dead, seat, hands[seat]))
        hands = _set(hands, seat, ())
    elif choice == BLINDE:
        deal = deal_with(deal, declarations=declarations, blinde_taker=seat)
    else:
        deal = deal_with(deal, declarations=declarations)
    players = state.match.players
    if seat != deal.dealer:
        return _with(state, deal, DECLARE, (seat + 1) % players, hands)
    first = seat + 1
    order = [(first + k) % players for k in range(players)]
    taking_part = [s for s in order if declarations[s] == PLAY or declarations[s] == BLINDE]
    deal = deal_with(deal, participants=tuple(taking_part))
    if choice == PLAY:
        return _with(state, deal, EXCHANGE, seat, hands)
    return _with(state, deal, CHECK, None, hands)


def _blinde_taken(state: State, data: Data) -> State:
    seat = data["seat"]
    deal = deal_with(state.deal, dead=_set(state.deal.dead, seat, state.hands[seat]), blinde=())
    return _with(state, deal, state.phase, state.turn, _set(state.hands, seat, tuple(data["cards"])))


def _exchanged(state: State, data: Data) -> State:
    seat, card = data["seat"], data["card"]
    deal = state.deal
    hand = tuple([c for c in state.hands[seat] if c != card]) + (deal.turnup,)
    deal = deal_with(deal, dead=_set(deal.dead, seat, deal.dead[seat] + (card,)), turnup_taken=True, exchanged=True)
    return _with(state, deal, CHECK, None, _set(state.hands, seat, hand))


def _no_exchange(state: State, data: Data) -> State:
    return _with(state, deal_with(state.deal, exchanged=False), CHECK, None)


def _gatta(state: State, data: Data) -> State:
    shown = tuple([(h["seat"], tuple(h["cards"]), h["value"]) for h in data["holders"]])
    return _with(state, deal_with(state.deal, gatta=shown), HAND_DONE, None)


def _ready(state: State, data: Data) -> State:
    leader, asked = data["leader"], tuple(data["forfeit_order"])
    deal = deal_with(state.deal, leader=leader, forfeit_order=asked)
    if asked:
        return _with(state, deal, FORFEIT, asked[0])
    return _with(state, deal, PLAYING, leader)


def _forfeit(state: State, data: Data) -> State:
    seat = data["seat"]
    deal = state.deal
    if data["forfeit"]:
        return _with(state, deal_with(deal, forfeiter=seat, forfeit_order=()), HAND_DONE, None)
    rest = deal.forfeit_order[1:]
    deal = deal_with(deal, forfeit_order=rest, forfeit_declined=deal.forfeit_declined + (seat,))
    if rest:
        return _with(state, deal, FORFEIT, rest[0])
    return _with(state, deal, PLAYING, deal.leader)


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
    old = state.match
    totals = tuple(map(scores.__getitem__, SEAT_KEYS[:old.players]))
    match = Match(old.players, old.max_hands, totals, old.hand_no, data, old.result)
    return make_state(match, state.deal, SCORED, None, state.hands, state.trick, state.history, state.won)


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


#: The steps `decide` folded last, by id of the event: (event, state before, state after).
_ahead: dict[int, tuple[Event, State | None, State]] = {}


def fold_ahead(state: State, events: list[Event], fresh: bool = False) -> State:
    """Fold `events` for `decide` (which must see the state its automatic steps act on) and remember
    each step, so that the runner's fold of the same events right after costs a look-up, not a rebuild.

    `fresh` forgets the steps of the previous `decide`. A step is reused only for the very same event
    object applied to the very same state object (states are immutable), so it can never be stale.
    """
    if fresh:
        _ahead.clear()
    for event in events:
        after = HANDLERS[event.type](state, event.data)
        _ahead[id(event)] = (event, state, after)
        state = after
    return state


def evolve(state: State | None, event: Event) -> State:
    step = _ahead.get(id(event))
    if step is not None and step[0] is event and step[1] is state:
        return step[2]
    return HANDLERS[event.type](state, event.data)
