"""What a seat may know (rules §12), and a full state rebuilt from it for search bots.

Hidden: other hands, the blinde, the undealt stock, every seat's dead cards but the viewer's own (a passed
hand, the original hand of the blinde taker, the card the dealer gave up) and face-down cards of others.
Public: the turn-up (also once the dealer took it), declarations, exchange yes/no, forfeit answers, gatta
hands, face-up cards played, counts and scores.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.shared import SharedDict, SharedList
from games.rules.muscio.state import CANONICAL, Deal, Match, State

JSON = dict[str, Any]


#: Every key of a view, in order, as the template each view copies (never changed itself): for a dict this
#: size, copying a prepared one and setting its values costs much less than building it from a literal.
_KEYS = dict.fromkeys((
    "players", "max_hands", "hand", "dealer", "phase", "turn", "scores", "trump", "turn_up", "turn_up_taken",
    "declarations", "blinde_taker", "exchanged", "participants", "leader", "forfeit_order", "forfeit_declined",
    "forfeiter", "gatta", "hand_counts", "blinde_count", "stock_count", "out_of_play_counts", "my_hand",
    "my_out_of_play", "trick", "tricks", "tricks_won", "last_hand", "result",
))
_EMPTY = SharedList()


def view(state: State, viewer: int | None) -> JSON:
    """Everything `viewer` may see (None: a spectator). Its lists are read-only (`shared`) or fresh."""
    # Unpacked once: a named tuple's field access costs several times a local variable's (views are hot). The
    # match's and the deal's entries that are shown as they are go straight into the view.
    match, deal, phase, turn, hands, trick, history, won = state
    out = _KEYS.copy()
    out["players"], out["max_hands"], scores, out["hand"], out["last_hand"], out["result"] = match
    (out["dealer"], out["trump"], out["turn_up"], out["turn_up_taken"], blinde, stock, dead, declarations,
     out["blinde_taker"], out["exchanged"], participants, out["leader"], forfeit_order, forfeit_declined,
     out["forfeiter"], gatta) = deal
    out["phase"] = phase
    out["turn"] = turn
    out["scores"] = SharedList(scores)
    out["declarations"] = SharedList(declarations)
    out["participants"] = SharedList(participants) if participants else _EMPTY
    out["forfeit_order"] = SharedList(forfeit_order) if forfeit_order else _EMPTY
    out["forfeit_declined"] = SharedList(forfeit_declined) if forfeit_declined else _EMPTY
    out["gatta"] = SharedList([SharedDict(seat=seat, cards=SharedList(cards), value=value)
                               for seat, cards, value in gatta]) if gatta else _EMPTY
    out["hand_counts"] = [*map(len, hands)]
    out["blinde_count"] = len(blinde)
    out["stock_count"] = len(stock)
    out["out_of_play_counts"] = SharedList(map(len, dead))
    if viewer is not None:  # (a spectator's `my_hand` and `my_out_of_play` stay null)
        out["my_hand"] = [*hands[viewer]]
        out["my_out_of_play"] = [*dead[viewer]]
    # A trick is `[seat, card, face_down]` triples in play order; `card` is null for another's face-down card.
    # (An empty comprehension still costs a call: the empty cases, the common ones, skip it.)
    out["trick"] = [[seat, card if (not down or seat == viewer) else None, down]
                    for seat, card, down in trick] if trick else []
    tricks: list[JSON] = []
    for plays, winner in history:  # (the finished tricks likewise)
        tricks.append({"plays": [[seat, card if (not down or seat == viewer) else None, down]
                                 for seat, card, down in plays], "winner": winner})
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
    return State(match, deal, seen["phase"], seen["turn"], tuple(hands), trick, history, tuple(seen["tricks_won"]))
