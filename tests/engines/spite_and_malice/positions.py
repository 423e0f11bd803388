"""Exact positions for the patience engines' scenario tests (Spite and Malice and Diavoletto).

A scenario names a few zones ("hand 5H 7D 9C KH JK, goal top AS, centre 0:2"); `position` builds the
table with exactly those zones and puts every card the scenario does not mention somewhere harmless
(the stock by default, or the bottom of the opponent's fourth discard row when the stock is given), so
every card of the game is still on the table exactly once.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

import pytest

from games.engine.cards import french_deck
from games.engine.chance import Chance
from games.engine.protocol import IllegalAction
from games.engine.runner import Position, apply_action
from games.rules.patience.engine import PatienceEngine
from games.rules.patience.state import Match, Table, Turn

SEED = "5a" * 32


def position(engine: PatienceEngine, *, hands: Sequence[str] = ("", ""), goals: Sequence[str] = ("", ""),
             rows: dict[tuple[int, int], str] | None = None, centre: Sequence[str] = (), stock: str | None = None,
             completed: str = "", current: int = 0, moved: bool = False, turn: int = 1, dead_turns: int = 0,
             target: int | None = None, max_turns: int = 1000, totals: tuple[int, int] = (0, 0),
             pile_ids: Sequence[int] | None = None) -> Table:
    """A table with exactly the zones given; card lists are space-separated strings (goal: top first,
    discard row and centre pile: bottom first, stock: top first)."""
    split = str.split
    hand_cards = tuple(tuple(split(h)) for h in hands)
    goal_cards = tuple(tuple(split(g)) for g in goals)
    row_cards = [[(), (), (), ()], [(), (), (), ()]]
    for (seat, row), cards in (rows or {}).items():
        row_cards[seat][row] = tuple(split(cards))
    ids = list(pile_ids) if pile_ids is not None else list(range(len(centre)))
    piles = tuple((ident, tuple(split(cards))) for ident, cards in zip(ids, centre, strict=True))
    used = Counter()
    for cards in (*hand_cards, *goal_cards, *row_cards[0], *row_cards[1], *(p[1] for p in piles), split(completed)):
        used.update(cards)
    if stock is not None:
        used.update(split(stock))
    everything = Counter(engine.card_set(2, {}))
    assert not used - everything, f"the position uses cards the game does not have: {used - everything}"
    spare = tuple(sorted((everything - used).elements()))
    if stock is None:
        stock_cards = spare
    else:
        stock_cards = tuple(split(stock))
        opponent = 1 - current
        row_cards[opponent][3] = spare + row_cards[opponent][3]
    match = Match(target, max_turns, 1, totals, (), False)
    return Table(match, Turn(current, turn, moved, dead_turns), hand_cards, goal_cards,
                 (tuple(row_cards[0]), tuple(row_cards[1])), stock_cards, piles, max(ids, default=-1) + 1,
                 tuple(split(completed)))


def goal_pack(top0: str, top1: str) -> list[str]:
    """A goal-pack order (for `decks`) whose two piles show `top0` and `top1`."""
    rest = french_deck()
    rest.remove(top0)
    rest.remove(top1)
    return [top0, *rest[:25], top1, *rest[25:]]


def play(engine: PatienceEngine, table: Table, seat: int, action: dict, seed: str = SEED,
         decks: Sequence[Sequence[str]] = ()) -> tuple[Table, list]:
    """Apply `action` through the platform runner (turn, shape and rules checks); new table and events."""
    new, events = apply_action(engine, Position(table, 0, 0), seat, action, Chance(seed, decks))
    return new.state, events


def legal(engine: PatienceEngine, table: Table) -> list[dict]:
    """The legal actions of the seat to act."""
    return engine.legal_actions(table, table.turn.current)


def refused(engine: PatienceEngine, table: Table, seat: int, action: dict, code: str) -> IllegalAction:
    """Assert the action is refused with `code`."""
    with pytest.raises(IllegalAction) as error:
        play(engine, table, seat, action)
    assert error.value.code == code, error.value.message
    return error.value


def same(actions: list[dict], expected: list[dict]) -> bool:
    """Equal as multisets of actions (order does not matter)."""
    def key(action: dict) -> str:
        return json.dumps(action, sort_keys=True)
    return sorted(map(key, actions)) == sorted(map(key, expected))


def types(events: list) -> list[str]:
    return [event.type for event in events]


def plays(table_actions: list[dict]) -> list[dict]:
    """Only the play actions of a list of legal actions."""
    return [a for a in table_actions if a["type"] == "play"]


def discards(table_actions: list[dict]) -> list[dict]:
    return [a for a in table_actions if a["type"] == "discard"]


def hand_play(card: str, center: int | str) -> dict:
    return {"type": "play", "source": "hand", "card": card, "center": center}


def goal_play(card: str, center: int | str) -> dict:
    return {"type": "play", "source": "goal", "card": card, "center": center}


def row_play(row: int, card: str, center: int | str) -> dict:
    return {"type": "play", "source": "discard", "pile": row, "card": card, "center": center}


def all_discards(hand: str) -> list[dict]:
    """The discard of each distinct card of `hand` on each of the four rows."""
    return [{"type": "discard", "card": card, "pile": row} for card in dict.fromkeys(hand.split()) for row in range(4)]
