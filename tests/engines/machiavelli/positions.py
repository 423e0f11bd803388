"""Exact Machiavelli positions for the tests, built by folding crafted events (never by poking a state)."""

from __future__ import annotations

import json

import pytest

from games.engine.chance import Chance
from games.engine.protocol import Event, IllegalAction
from games.engine.runner import Position, apply_action, fold
from games.rules.machiavelli import ENGINE
from games.rules.machiavelli.melds import verdict

SEED = "5e" * 32


def cards(text: str) -> list[str]:
    return text.split()


def position(hands: list[str], table: list[str] = (), stock: str = "", turn: int = 0, *, opening: bool = False,
             deal: int = 1, **options) -> Position:
    """Seat `s` holds `hands[s]`, the table holds the groups `table`, the stock `stock` (top first) and it is
    `turn`'s turn. Unless `opening`, the opening draw is over: the seat before `turn` opened the deal (with
    a crafted empty draw) and laid the table down. Only the cards named are in play."""
    seats = len(hands)
    opts = ENGINE.normalize_options(options, seats)
    placer = (turn - 1) % seats
    dealer = (turn - 1) % seats if opening else (turn - 2) % seats
    groups = sorted(list(verdict(tuple(cards(group))) or cards(group)) for group in table)  # as decide stores them
    dealt = [cards(hand) for hand in hands]
    dealt[placer] += [card for group in groups for card in group]
    events = [
        Event("setup", {"seats": seats, "options": opts}),
        Event("first_dealer", {"seat": dealer, "source": "option"}),
        Event("deal_start", {"deal": deal, "dealer": dealer}),
        Event("shuffle", {"n": 0, "purpose": f"deal:{deal}", "cards": sum(dealt, []) + cards(stock),
                          "source": "decks"}, visible_to=frozenset()),
    ]
    events += [Event("deal_hand", {"seat": seat, "cards": dealt[seat]}, visible_to=frozenset({seat}))
               for seat in range(seats)]
    if not opening:
        events.append(Event("draw", {"seat": placer, "cards": [], "reason": "turn"}))
        if groups:
            added = [card for group in groups for card in group]
            events.append(Event("meld", {"seat": placer, "table": groups, "added": added}))
    return fold(ENGINE, [json_round_trip(e) for e in events])


def json_round_trip(event: Event) -> Event:
    public = json.loads(json.dumps(event.public)) if event.public is not None else None
    return Event(event.type, json.loads(json.dumps(event.data)), public, event.visible_to, event.actor)


def play(table: Position, seat: int, action: dict, seed: str = SEED) -> tuple[Position, list[Event]]:
    """Apply `action` (as a client would send it, JSON round-tripped) through the runner."""
    return apply_action(ENGINE, table, seat, json.loads(json.dumps(action)), Chance(seed, (), table.shuffles))


def refused(table: Position, seat: int, action: dict, code: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        play(table, seat, action)
    assert caught.value.code == code, caught.value.message


def meld(*groups: str) -> dict:
    return {"type": "meld", "table": [cards(group) for group in groups]}


def table_of(table: Position) -> list[list[str]]:
    return [list(group) for group in table.state.table]


def melds(table: Position, seat: int | None = None) -> list[list[list[str]]]:
    """The `table` of every sampled meld action (normalised groups, sorted), for comparisons."""
    seat = table.state.turn if seat is None else seat
    out = []
    for action in ENGINE.legal_actions(table.state, seat):
        if action["type"] == "meld":
            out.append(sorted(sorted(group) for group in action["table"]))
    return out


def arrangement(*groups: str) -> list[list[str]]:
    """A table in the form `melds` returns."""
    return sorted(sorted(cards(group)) for group in groups)
