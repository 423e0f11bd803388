"""Validate an action and return every fact it causes, up to the next decision a player must take.

After the acting player's own events, the automatic steps follow (gatta check, trick won, hand scored,
end of match or next deal). A card played knows them from the state before it; after the declarations,
the exchange or a forfeit, the events are folded first (`fold`) so the check sees the state it needs.
The events whose values repeat are the shared ones of `events`.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.protocol import Action, Event, IllegalAction, Rng
from games.rules.muscio.deal import hand_events
from games.rules.muscio.events import (
    DECLARED,
    EXCHANGED,
    FORFEIT_ANSWER,
    NO_EXCHANGE,
    ONLY,
    PLAYED_DOWN,
    PLAYED_UP,
    TRICK_WON,
    ready,
)
from games.rules.muscio.evolve import fold
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
    BLINDE,
    CHECK,
    DECLARE,
    EXCHANGE,
    FORFEIT,
    HAND_DONE,
    PASS,
    PLAY,
    PLAYING,
    TRICKS,
    Deal,
    Match,
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
    if phase == PLAYING and kind == "play":  # (the usual step, ahead of the general phase check)
        return _play(state, seat, action, rng)
    if kind not in _PHASE_ACTIONS.get(phase, ()):
        expected = ", ".join(_PHASE_ACTIONS.get(phase, ())) or "nothing"
        raise IllegalAction("wrong_phase", f"{kind!r} is not an action of {_PHASE_NAMES.get(phase, phase)}; "
                                           f"expected: {expected}")
    if phase == DECLARE:
        events = _declare(state, seat, action)
        if seat != state.deal.dealer or kind == "play":
            return events  # the next player declares, or the dealer who plays is asked about the exchange
    elif phase == EXCHANGE:
        events = _exchange(state, seat, action)
    else:
        if len(action) != 1:
            raise _extra_fields(action)
        events = [FORFEIT_ANSWER[seat][kind == "forfeit"]]
        if kind == "no_forfeit":
            return events  # the other participant is asked, or the play begins
    return _continue(state, events, rng)


def _extra_fields(action: Action) -> IllegalAction:
    """The refusal of an action that holds more than its "type" where it takes no field."""
    return IllegalAction("invalid_action", f"{action['type']!r} takes no field here")


def _declare(state: State, seat: int, action: Action) -> list[Event]:
    if len(action) != 1:
        raise _extra_fields(action)
    choice = _DECLARATIONS[action["type"]]
    if choice == PASS and not pass_allowed(state, seat):
        raise IllegalAction("must_play", "at least two players must take part: you may not pass")
    if choice == BLINDE and not blinde_available(state):
        raise IllegalAction("blinde_taken", "the blinde has already been taken")
    events = [DECLARED[seat][choice]]
    if choice == BLINDE:
        cards = list(state.deal.blinde)
        events.append(Event("blinde_taken", {"seat": seat, "cards": cards}, {"seat": seat, "count": len(cards)},
                                ONLY[seat], seat))
    return events


def _exchange(state: State, seat: int, action: Action) -> list[Event]:
    if action["type"] == "no_exchange":
        if len(action) != 1:
            raise _extra_fields(action)
        return [NO_EXCHANGE[seat]]
    card = action.get("card")
    if card not in state.hands[seat]:
        raise IllegalAction("card_not_in_hand", "you can only give up a card of your hand")
    return [EXCHANGED[seat][card]]


def _play(state: State, seat: int, action: Action, rng: Rng) -> list[Event]:
    card = action.get("card")
    if card is None:
        raise IllegalAction("invalid_action", "name the card to play: {\"type\": \"play\", \"card\": ...}")
    if len(action) != 2:
        raise IllegalAction("invalid_action", "'play' takes only the field 'card'")
    legal = state.legal  # (kept by the fold for the seat to play, whose turn it is)
    cards, face_down = legal if legal is not None else play_options(state, seat)
    if card not in cards:  # (the legal cards are some of the hand: which refusal, the hand tells)
        if card not in state.hands[seat]:
            raise IllegalAction("card_not_in_hand", "that card is not in your hand")
        code, message = refusal(state, seat, card)
        raise IllegalAction(code, message)
    event = (PLAYED_DOWN if face_down else PLAYED_UP)[seat][card]
    trick = state.trick
    deal = state.deal
    if len(trick) + 1 < len(deal.participants):
        return [event]
    done = len(state.history)
    winner = winner_of((*trick, (seat, card, face_down)), deal.trump)
    events = [event, TRICK_WON[winner][done]]
    if done + 1 < TRICKS:  # its winner leads the next trick
        return events
    won = [*state.won]  # the last trick: the hand is scored
    won[winner] += 1
    return _hand_over(state.match, deal, won, events, rng)


def _continue(state: State, events: list[Event], rng: Rng) -> list[Event]:
    """Fold `events`, then emit the automatic facts that follow: the gatta check once the declarations and
    the exchange are over, the score once the hand is decided without play (a gatta, a forfeit)."""
    state = fold(state, events)
    if state.phase == CHECK:
        found = gatte(state)
        if not found:
            events.append(_ready(state.deal))
            return events
        shown = _gatta(state, found)
        state = fold(state, [shown])
        events.append(shown)
    if state.phase == HAND_DONE:
        return _hand_over(state.match, state.deal, state.won, events, rng)
    return events


def _gatta(state: State, found: list[tuple[int, str, int]]) -> Event:
    """§7: the gatte found are shown, and they decide the hand."""
    holders = [{"seat": seat, "cards": list(state.hands[seat]), "suit": suit, "value": value}
               for seat, suit, value in found]
    return Event("gatta", {"holders": holders}, None, None, None)


def _ready(deal: Deal) -> Event:
    """No gatta: who leads (the first participant) and who is asked about a forfeit (MU-7, MU-8)."""
    participants = deal.participants
    asked: tuple[int, ...] = ()
    if len(participants) == 2:
        asked = tuple([seat for seat in participants if seat != deal.blinde_taker])
    return ready(participants, asked)


def _hand_over(match: Match, deal: Deal, won: Sequence[int], events: list[Event], rng: Rng) -> list[Event]:
    """Add to `events` the score of the hand that ends, then the end of the match or the next hand's deal."""
    outcome = hand_outcome(match, deal, won)
    events.append(Event("hand_scored", outcome, None, None, None))
    players, max_hands, _, hand_no, _, _ = match
    scores = [*outcome["scores"].values()]  # (in seat order, as the fold reads them)
    result = match_outcome(scores, hand_no, max_hands)
    if result is not None:
        events.append(Event("match_over", result, None, None, None))
    else:
        events.extend(hand_events(players, (deal.dealer + 1) % players, hand_no + 1, rng))
    return events
