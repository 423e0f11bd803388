"""The fold step: one event applied to a table, with no validation and no randomness.

`data` of every event is the whole truth, so folding a stored log (lists where tuples were) rebuilds an
equal table. `decide` and `start` call `evolve` too, on their rare paths that read the table some of their
events lead to (a game ends, a pile is recycled, a game is dealt); see `games.rules.patience.decide`.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.protocol import JSON, Event
from games.engine.shared import SharedList
from games.engine.values import new
from games.rules.patience.state import (
    GOAL_SIZE,
    KING,
    NOTHING_SHOWN,
    GameResult,
    Match,
    Table,
    Turn,
    empty_table,
    fresh_zones,
    pile_index,
    show_pile,
    show_row,
    with_table,
)


def _setup(table: Table | None, data: JSON) -> Table:
    return empty_table(data["target"], data["max_turns"])


def _game_start(table: Table, data: JSON) -> Table:
    m = table.match
    return fresh_zones(Match(m.target, m.max_turns, data["game"], m.totals, m.history, False))


def _shuffle(table: Table, data: JSON) -> Table:
    match, turn, hands, goals, rows, stock, centre, next_pile, completed, shown = table
    cards = tuple(data["cards"])
    purpose = data["purpose"]
    if purpose == "goal":
        goals = (cards[:GOAL_SIZE], cards[GOAL_SIZE:])
    else:  # "recycle_under" puts the completed cards under the stock; "stock" (set-up), "recycle" replace it
        stock = stock + cards if purpose == "recycle_under" else cards
        completed = ()
        shown = None if shown is None else (shown[0], NOTHING_SHOWN[1], shown[2])
    return with_table(table, goals=goals, stock=stock, completed=completed, shown=shown)


def _goal_tops(t: Table, data: JSON) -> Table:
    """The goal tops are compared: the higher one starts turn 1 (on a tie the goal pack is shuffled again)."""
    first = data["first"]
    if first is None:
        return t
    return with_table(t, turn=Turn(first, 1, False, 0))


# The hottest handlers (a play, a discard, a draw) take the table apart in one unpacking (cheaper than reading
# its fields one by one) and build tables and turns positionally (`new`, field order).

def _end_turn(table: Table, data: JSON) -> Table:
    """A discard or an end_turn closes the turn: the other seat's turn begins."""
    turn = table.turn
    return with_table(table, turn=Turn(1 - turn.current, turn.number + 1, False, data["dead_turns"]))


def _play(table: Table, data: JSON) -> Table:
    match, turn, hands, goals, rows, stock, centre, next_pile, completed, shown = table
    seat, card, source, where = data["seat"], data["card"], data["source"], data["center"]
    if source == "hand":
        hand = hands[seat]
        index = hand.index(card)
        hand = hand[:index] + hand[index + 1:]
        hands = (hand, hands[1]) if seat == 0 else (hands[0], hand)
    elif source == "goal":
        goal = goals[seat][1:]
        goals = (goal, goals[1]) if seat == 0 else (goals[0], goal)
    else:
        seat_rows = list(rows[seat])
        row = data["pile"]
        seat_rows[row] = seat_rows[row][:-1]
        rows = (tuple(seat_rows), rows[1]) if seat == 0 else (rows[0], tuple(seat_rows))
        if shown is not None:  # one discard row changes in the views
            shown = (shown[0], shown[1], show_row(shown[2], seat, row, seat_rows[row]))
    # The centre changes, and its part of the views (`shown`) with it: one pile's entry.
    shown_piles = None if shown is None else [*shown[0]]
    if data["opened"]:
        centre = (*centre, (where, (card,)))
        next_pile = where + 1
        if shown is not None:
            shown_piles.append(show_pile(where, (card,)))
            shown = (SharedList(shown_piles), shown[1], shown[2])
    else:
        index = pile_index(table, where)
        cards = centre[index][1] + (card,)
        if len(cards) == KING:
            centre = centre[:index] + centre[index + 1:]
            completed = completed + cards
            if shown is not None:
                del shown_piles[index]
                shown = (SharedList(shown_piles), SharedList(completed), shown[2])
        else:
            piles = list(centre)
            piles[index] = (where, cards)
            centre = tuple(piles)
            if shown is not None:
                shown_piles[index] = show_pile(where, cards)
                shown = (SharedList(shown_piles), shown[1], shown[2])
    current, number, moved, dead_turns = turn
    if not moved:
        turn = new(Turn, (current, number, True, dead_turns))
    return new(Table, (match, turn, hands, goals, rows, stock, centre, next_pile, completed, shown))


def _discard(table: Table, data: JSON) -> Table:
    """The card goes from the hand to the row, and the turn passes (as in `_end_turn`)."""
    match, turn, hands, goals, rows, stock, centre, next_pile, completed, shown = table
    seat, card, row = data["seat"], data["card"], data["pile"]
    hand = hands[seat]
    index = hand.index(card)
    hand = hand[:index] + hand[index + 1:]
    seat_rows = list(rows[seat])
    seat_rows[row] += (card,)
    if seat == 0:
        hands, rows = (hand, hands[1]), (tuple(seat_rows), rows[1])
    else:
        hands, rows = (hands[0], hand), (rows[0], tuple(seat_rows))
    if shown is not None:  # one discard row changes in the views
        shown = (shown[0], shown[1], show_row(shown[2], seat, row, seat_rows[row]))
    current, number, _, _ = turn
    turn = new(Turn, (1 - current, number + 1, False, data["dead_turns"]))
    return new(Table, (match, turn, hands, goals, rows, stock, centre, next_pile, completed, shown))


def _take(table: Table, data: JSON) -> Table:
    """A deal or a draw: cards from the top of the stock to a hand."""
    match, turn, hands, goals, rows, stock, centre, next_pile, completed, shown = table
    seat, cards = data["seat"], data["cards"]
    hand = hands[seat] + tuple(cards)
    hands = (hand, hands[1]) if seat == 0 else (hands[0], hand)
    return new(Table, (match, turn, hands, goals, rows, stock[len(cards):], centre, next_pile, completed, shown))


def _game_over(table: Table, data: JSON) -> Table:
    points = data["points"]
    totals = data["totals"]
    result = GameResult(data["game"], data["winner"], (points["0"], points["1"]), data["reason"])
    m = table.match
    match = Match(m.target, m.max_turns, m.game, (totals["0"], totals["1"]), m.history + (result,),
                  data["match_over"])
    return with_table(table, match=match)


_HANDLERS: dict[str, Callable[[Table, JSON], Table]] = {
    "setup": _setup,
    "game_start": _game_start,
    "shuffle": _shuffle,
    "goal_tops": _goal_tops,
    "deal": _take,
    "draw": _take,
    "play": _play,
    "discard": _discard,
    "end_turn": _end_turn,
    "game_over": _game_over,
}


def evolve(table: Table | None, event: Event) -> Table:
    return _HANDLERS[event.type](table, event.data)
