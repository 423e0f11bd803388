"""What a seat may know (rules §12), and a full state rebuilt from it for search bots.

Hidden: other hands, the blinde, the undealt stock, every seat's dead cards but the viewer's own (a passed
hand, the original hand of the blinde taker, the card the dealer gave up) and face-down cards of others.
Public: the turn-up (also once the dealer took it), declarations, exchange yes/no, forfeit answers, gatta
hands, face-up cards played, counts and scores.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engine.shared import SharedDict, SharedList
from games.rules.muscio.state import CANONICAL, Deal, Match, State

JSON = dict[str, Any]


#: Every key of a view, in order: the template of `view_frame` (copied, never changed itself).
_KEYS = dict.fromkeys((
    "players", "max_hands", "hand", "dealer", "phase", "turn", "scores", "trump", "turn_up", "turn_up_taken",
    "declarations", "blinde_taker", "exchanged", "participants", "leader", "forfeit_order", "forfeit_declined",
    "forfeiter", "gatta", "hand_counts", "blinde_count", "stock_count", "out_of_play_counts", "my_hand",
    "my_out_of_play", "trick", "tricks", "tricks_won", "last_hand", "result",
))
_EMPTY = SharedList()


def _as_is(value: Any) -> Any:
    return value


def _listed(values: tuple) -> SharedList:
    return SharedList(values) if values else _EMPTY


def _counts(piles: tuple[tuple[str, ...], ...]) -> SharedList:
    return SharedList(map(len, piles))


def _gatte(gatta: tuple) -> SharedList:
    return SharedList([SharedDict(seat=seat, cards=SharedList(cards), value=value)
                       for seat, cards, value in gatta]) if gatta else _EMPTY


#: How each field of the match and of the deal shows in a view: field -> (its key, how its value is shown).
#: Every shown value is read-only (`games.engine.shared`), so that the views of a state share it.
MATCH_SHOWN: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "players": ("players", _as_is), "max_hands": ("max_hands", _as_is), "scores": ("scores", SharedList),
    "hand_no": ("hand", _as_is), "last_hand": ("last_hand", _as_is), "result": ("result", _as_is),
}
DEAL_SHOWN: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "dealer": ("dealer", _as_is), "trump": ("trump", _as_is), "turnup": ("turn_up", _as_is),
    "turnup_taken": ("turn_up_taken", _as_is), "blinde": ("blinde_count", len), "stock": ("stock_count", len),
    "dead": ("out_of_play_counts", _counts), "declarations": ("declarations", SharedList),
    "blinde_taker": ("blinde_taker", _as_is), "exchanged": ("exchanged", _as_is),
    "participants": ("participants", _listed), "leader": ("leader", _as_is),
    "forfeit_order": ("forfeit_order", _listed), "forfeit_declined": ("forfeit_declined", _listed),
    "forfeiter": ("forfeiter", _as_is), "gatta": ("gatta", _gatte),
}


def view_frame(match: Match, deal: Deal) -> JSON:
    """Every key of a view, in order, with the values the match and the deal decide (`State.frame`); the
    others None, for `view` to fill in."""
    frame = _KEYS.copy()
    for name, value in zip(Match._fields, match, strict=True):
        key, show = MATCH_SHOWN[name]
        frame[key] = show(value)
    for name, value in zip(Deal._fields, deal, strict=True):
        key, show = DEAL_SHOWN[name]
        frame[key] = show(value)
    return frame


def reframe(frame: JSON, shown: dict[str, tuple[str, Callable[[Any], Any]]], changes: dict[str, Any]) -> JSON:
    """A copy of `frame` after the match or deal fields `changes` (field -> new value; `shown`: `MATCH_SHOWN`
    or `DEAL_SHOWN`): the fold's way of keeping `State.frame` in step, one changed field at a time."""
    frame = frame.copy()
    for name, value in changes.items():
        key, show = shown[name]
        frame[key] = show(value)
    return frame


def view(state: State, viewer: int | None) -> JSON:
    """Everything `viewer` may see (None: a spectator): a copy of the state's view frame (`State.frame`) with
    the values that change at every card. Its lists are read-only (`shared`) or fresh."""
    _, deal, phase, turn, hands, trick, history, won, frame, _ = state  # (views are hot: fields read once)
    out = frame.copy()
    out["phase"] = phase
    out["turn"] = turn
    out["hand_counts"] = [*map(len, hands)]
    if viewer is not None:  # (a spectator's `my_hand` and `my_out_of_play` stay null)
        out["my_hand"] = [*hands[viewer]]
        out["my_out_of_play"] = [*deal.dead[viewer]]
    # A trick is `[seat, card, face_down]` triples in play order; `card` is null for another's face-down card.
    # (Plain loops: a comprehension costs a call, and a view lists up to six tricks.)
    shown: list[list[Any]] = []
    for seat, card, down in trick:
        shown.append([seat, card if (not down or seat == viewer) else None, down])
    out["trick"] = shown
    tricks: list[JSON] = []
    for plays, winner in history:  # (the finished tricks likewise)
        shown = []
        for seat, card, down in plays:
            shown.append([seat, card if (not down or seat == viewer) else None, down])
        tricks.append({"plays": shown, "winner": winner})
    out["tricks"] = tricks
    out["tricks_won"] = [*won]
    return out


def sample_state(seen: JSON, viewer: int | None, rng: random.Random) -> State:
    """A full state consistent with `seen`: the unknown cards dealt at random among the hidden places.

    It does not infer voids from the play (a seat that did not follow suit may be given that suit).
    """
    players = seen["players"]
    played = [play for trick in seen["tricks"] for play in trick["plays"]] + seen["trick"]
    face_up = {play[1] for play in played if play[1] is not None}
    gatta = {entry["seat"]: tuple(entry["cards"]) for entry in seen["gatta"]}
    known = set(face_up)
    known.add(seen["turn_up"])
    for cards in gatta.values():
        known.update(cards)
    if viewer is not None:
        known.update(seen["my_hand"])
        known.update(seen["my_out_of_play"])
    pool = [card for card in CANONICAL if card not in known]
    rng.shuffle(pool)

    def draw(count: int) -> tuple[str, ...]:
        taken = tuple(pool[-count:]) if count else ()
        del pool[len(pool) - count:]
        return taken

    dealer, turnup = seen["dealer"], seen["turn_up"]
    turnup_in_hand = bool(turnup) and seen["turn_up_taken"] and turnup not in face_up
    hands: list[tuple[str, ...]] = []
    for seat in range(players):
        if seat == viewer:
            hands.append(tuple(seen["my_hand"]))
        elif seat in gatta:
            hands.append(gatta[seat])
        elif seat == dealer and turnup_in_hand:
            hands.append((turnup,) + draw(seen["hand_counts"][seat] - 1))
        else:
            hands.append(draw(seen["hand_counts"][seat]))
    dead = tuple(tuple(seen["my_out_of_play"]) if seat == viewer else draw(seen["out_of_play_counts"][seat])
                 for seat in range(players))

    def trick_of(plays: list[list[Any]]) -> tuple:
        return tuple((seat, card if card is not None else draw(1)[0], down) for seat, card, down in plays)

    trick = trick_of(seen["trick"])
    history = tuple((trick_of(t["plays"]), t["winner"]) for t in seen["tricks"])
    blinde = draw(seen["blinde_count"])
    stock = draw(seen["stock_count"])
    participants = tuple(seen["participants"])
    match = Match(players, seen["max_hands"], tuple(seen["scores"]), seen["hand"], seen["last_hand"], seen["result"])
    deal = Deal(
        dealer=dealer, trump=seen["trump"], turnup=turnup, turnup_taken=seen["turn_up_taken"], blinde=blinde,
        stock=stock, dead=dead, declarations=tuple(seen["declarations"]), blinde_taker=seen["blinde_taker"],
        exchanged=seen["exchanged"], participants=participants,
        leader=seen["leader"],
        forfeit_order=tuple(seen["forfeit_order"]), forfeit_declined=tuple(seen["forfeit_declined"]),
        forfeiter=seen["forfeiter"], gatta=tuple((e["seat"], tuple(e["cards"]), e["value"]) for e in seen["gatta"]),
    )
    return State(match, deal, seen["phase"], seen["turn"], tuple(hands), trick, history, tuple(seen["tricks_won"]),
                 view_frame(match, deal))
