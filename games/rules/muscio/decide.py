"""Validate an action and return every fact it causes, up to the next decision a player must take.

After the acting player's own events, the automatic steps follow in a loop (gatta check, trick won, hand
scored, end of match or next deal), each folded (`fold_ahead`) so the next step sees the state it needs.
"""

from __future__ import annotations

from typing import Any

from games.engine.protocol import Action, Event, IllegalAction, Rng
from games.rules.muscio.deal import ONLY, hand_events, new_event
from games.rules.muscio.evolve import fold_ahead
from games.rules.muscio.rules import (
    blinde_available,
    gatte,
    hand_outcome,
    match_outcome,
    pass_allowed,
    play_options,
    refusal,
    winner_of,
)
from games.rules.muscio.state import (
    AUTOMATIC,
    BLINDE,
    CHECK,
    DECLARE,
    EXCHANGE,
    FORFEIT,
    HAND_DONE,
    PASS,
    PLAY,
    PLAYING,
    SCORED,
    TRICK_DONE,
    State,
)

_PHASE_ACTIONS = {
    DECLARE: ("play", "play_blinde", "pass"),
    EXCHANGE: ("exchange", "no_exchange"),
    FORFEIT: ("forfeit", "no_forfeit"),
    PLAYING: ("play",),
}
_DECLARATIONS = {"play": PLAY, "play_blinde": BLINDE, "pass": PASS}
_PHASE_NAMES = {DECLARE: "the declarations", EXCHANGE: "the dealer's exchange", FORFEIT: "the forfeit question",
                PLAYING: "the play of the tricks"}


def decide(state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
    phase = state.phase
    if seat != state.turn:
        raise IllegalAction("not_your_turn", f"seat {seat} may not act now")
    kind = action.get("type")
    if kind not in _PHASE_ACTIONS.get(phase, ()):
        expected = ", ".join(_PHASE_ACTIONS.get(phase, ())) or "nothing"
        raise IllegalAction("wrong_phase", f"{kind!r} is not an action of {_PHASE_NAMES.get(phase, phase)}; "
                                           f"expected: {expected}")
    if phase == PLAYING:
        return _play(state, seat, action, rng)
    if phase == DECLARE:
        events = _declare(state, seat, action)
        if seat != state.deal.dealer:
            return events  # the next player declares: nothing automatic follows
    elif phase == EXCHANGE:
        events = _exchange(state, seat, action)
    else:
        _no_extra_fields(action)
        events = [new_event("forfeit", {"seat": seat, "forfeit": kind == "forfeit"}, None, None, seat)]
        if kind == "no_forfeit":
            return events  # the other participant is asked, or the play begins
    return _continue(state, events, rng)


def _no_extra_fields(action: Action) -> None:
    if len(action) != 1:  # (it holds the "type")
        raise IllegalAction("invalid_action", f"{action['type']!r} takes no field here")


def _declare(state: State, seat: int, action: Action) -> list[Event]:
    _no_extra_fields(action)
    choice = _DECLARATIONS[action["type"]]
    if choice == PASS and not pass_allowed(state, seat):
        raise IllegalAction("must_play", "at least two players must take part: you may not pass")
    if choice == BLINDE and not blinde_available(state):
        raise IllegalAction("blinde_taken", "the blinde has already been taken")
    events = [new_event("declared", {"seat": seat, "declaration": choice}, None, None, seat)]
    if choice == BLINDE:
        cards = list(state.deal.blinde)
        events.append(new_event("blinde_taken", {"seat": seat, "cards": cards}, {"seat": seat, "count": len(cards)},
                                ONLY[seat], seat))
    return events


def _exchange(state: State, seat: int, action: Action) -> list[Event]:
    if action["type"] == "no_exchange":
        _no_extra_fields(action)
        return [new_event("no_exchange", {"seat": seat}, None, None, seat)]
    card = action.get("card")
    if card not in state.hands[seat]:
        raise IllegalAction("card_not_in_hand", "you can only give up a card of your hand")
    return [new_event("exchanged", {"seat": seat, "card": card}, {"seat": seat}, ONLY[seat], seat)]


def _play(state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
    card = action.get("card")
    if card is None:
        raise IllegalAction("invalid_action", "name the card to play: {\"type\": \"play\", \"card\": ...}")
    if len(action) != 2:
        raise IllegalAction("invalid_action", "'play' takes only the field 'card'")
    if card not in state.hands[seat]:
        raise IllegalAction("card_not_in_hand", "that card is not in your hand")
    cards, face_down = play_options(state, seat)
    if card not in cards:
        code, message = refusal(state, seat, card)
        raise IllegalAction(code, message)
    if face_down:
        event = new_event("played", {"seat": seat, "card": card, "face_down": True},
                          {"seat": seat, "face_down": True}, ONLY[seat], seat)
    else:
        event = new_event("played", {"seat": seat, "card": card, "face_down": False}, None, None, seat)
    if len(state.trick) + 1 < len(state.deal.participants):
        return [event]
    return _continue(state, [event], rng)


def _continue(state: State, events: list[Event], rng: Rng) -> list[Event]:
    """Fold `events`, then emit the automatic facts until a player must decide (or the match is over)."""
    state = fold_ahead(state, events, fresh=True)
    while state.phase in AUTOMATIC:
        if state.phase == SCORED:
            # The last automatic step: the match ends or the next hand is dealt (its declarations follow).
            events.extend(_scored(state, rng))
            return events
        step = _AUTO[state.phase](state, rng)
        state = fold_ahead(state, step)
        events.extend(step)
    return events


def _check(state: State, rng: Rng) -> list[Event]:
    """§7 gatta check, then (no gatta) who leads and who is asked about a forfeit (MU-7, MU-8)."""
    found = gatte(state)
    if found:
        holders = [{"seat": seat, "cards": list(state.hands[seat]), "suit": suit, "value": value}
                   for seat, suit, value in found]
        return [new_event("gatta", {"holders": holders}, None, None, None)]
    deal = state.deal
    leader = deal.participants[0]
    asked: list[int] = []
    if len(deal.participants) == 2:
        asked = [seat for seat in deal.participants if seat != deal.blinde_taker]
    data = {"participants": list(deal.participants), "leader": leader, "forfeit_order": asked}
    return [new_event("ready", data, None, None, None)]


def _trick_done(state: State, rng: Rng) -> list[Event]:
    data = {"winner": winner_of(state.trick, state.deal.trump), "trick": len(state.history) + 1}
    return [new_event("trick_won", data, None, None, None)]


def _hand_done(state: State, rng: Rng) -> list[Event]:
    return [new_event("hand_scored", hand_outcome(state), None, None, None)]


def _scored(state: State, rng: Rng) -> list[Event]:
    match = state.match
    outcome = match_outcome(match.scores, match.hand_no, match.max_hands)
    if outcome is not None:
        return [new_event("match_over", outcome, None, None, None)]
    return hand_events(match.players, (state.deal.dealer + 1) % match.players, match.hand_no + 1, rng)


_AUTO: dict[str, Any] = {CHECK: _check, TRICK_DONE: _trick_done, HAND_DONE: _hand_done}
