"""Building Muscio's events, and the ones whose values repeat built once: a card played, a trick won, a
declaration, a forfeit answer, the dealer's exchange, a hand's turn-up. The once-a-hand events are built
each time (`hand_started`, `ready`).

Making an `Event` costs more than most of the step that emits it, and a match repeats these few hundred
values over and over, so `decide` hands out the same (immutable, read-only: see `shared`) objects.
"""

from __future__ import annotations

from games.engine.protocol import Event
from games.engine.shared import SharedDict
from games.rules.muscio.state import BLINDE, CANONICAL, HAND_SIZE, PASS, PLAY, TRICKS

_SEATS = range(6)
#: `frozenset({seat})` per seat, built once (frozensets are immutable, so sharing them is safe).
ONLY = tuple(frozenset({seat}) for seat in _SEATS)


def _played(seat: int, card: str, face_down: bool) -> Event:
    data = SharedDict(seat=seat, card=card, face_down=face_down)
    if face_down:  # only the player sees which card went face down
        return Event("played", data, SharedDict(seat=seat, face_down=True), ONLY[seat], seat)
    return Event("played", data, None, None, seat)


#: [seat][card] -> the `played` event of that card face up, and face down.
PLAYED_UP = tuple({card: _played(seat, card, False) for card in CANONICAL} for seat in _SEATS)
PLAYED_DOWN = tuple({card: _played(seat, card, True) for card in CANONICAL} for seat in _SEATS)
#: [winner][trick number - 1] -> `trick_won`
TRICK_WON = tuple(tuple(Event("trick_won", SharedDict(winner=winner, trick=number), None, None, None)
                        for number in range(1, TRICKS + 1)) for winner in _SEATS)
#: [seat][declaration] -> `declared`
DECLARED = tuple({choice: Event("declared", SharedDict(seat=seat, declaration=choice), None, None, seat)
                  for choice in (PLAY, BLINDE, PASS)} for seat in _SEATS)
#: [seat][forfeits] -> `forfeit` (the answer indexes the pair: False, True)
FORFEIT_ANSWER = tuple(tuple(Event("forfeit", SharedDict(seat=seat, forfeit=answer), None, None, seat)
                             for answer in (False, True)) for seat in _SEATS)
#: [seat] -> `no_exchange`; [seat][card] -> `exchanged` (only the dealer sees the card given up)
NO_EXCHANGE = tuple(Event("no_exchange", SharedDict(seat=seat), None, None, seat) for seat in _SEATS)
EXCHANGED = tuple({card: Event("exchanged", SharedDict(seat=seat, card=card), SharedDict(seat=seat), ONLY[seat],
                                   seat) for card in CANONICAL} for seat in _SEATS)
#: card -> `turn_up`
TURN_UP = {card: Event("turn_up", SharedDict(card=card, trump=card[1]), None, None, None) for card in CANONICAL}
#: [seat] -> the public side of a `dealt` packet of five; the public side of the blinde
DEALT_PUBLIC = tuple(SharedDict(seat=seat, count=HAND_SIZE) for seat in _SEATS)
BLINDE_PUBLIC = SharedDict(count=HAND_SIZE)


def hand_started(hand: int, dealer: int) -> Event:
    """The `hand_started` event of hand number `hand` (once a hand: built each time)."""
    return Event("hand_started", {"hand": hand, "dealer": dealer}, None, None, None)


def ready(participants: tuple[int, ...], asked: tuple[int, ...]) -> Event:
    """The `ready` event: who plays, who leads (the first participant), who is asked about a forfeit."""
    data = {"participants": list(participants), "leader": participants[0], "forfeit_order": list(asked)}
    return Event("ready", data, None, None, None)
