"""The fold step: one event applied to a table, with no validation and no randomness.

`data` of every event is the whole truth, so folding a stored log (lists where tuples were) rebuilds an
equal table. `Recorder` lets `decide` and `start` emit events while keeping the table they lead to, so
the flow code reads the state the events produce instead of predicting it.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.handoff import Handoff
from games.engine.protocol import JSON, Event
from games.rules.patience.state import (
    GOAL_SIZE,
    KING,
    GameResult,
    Match,
    Table,
    Turn,
    empty_table,
    fresh_zones,
    make_table,
    make_turn,
    pile_index,
    without_one,
)


def _setup(table: Table | None, data: JSON) -> Table:
    return empty_table(data["target"], data["max_turns"])


def _game_start(table: Table, data: JSON) -> Table:
    m = table.match
    return fresh_zones(Match(m.target, m.max_turns, data["game"], m.totals, m.history, False))


def _shuffle(table: Table, data: JSON) -> Table:
    match, turn, hands, goals, rows, stock, centre, next_pile, completed = table
    cards = tuple(data["cards"])
    purpose = data["purpose"]
    if purpose == "goal":
        goals = (cards[:GOAL_SIZE], cards[GOAL_SIZE:])
    elif purpose == "recycle_under":
        stock, completed = stock + cards, ()
    else:  # "stock" (set-up) or "recycle" (stock + completed)
        stock, completed = cards, ()
    return make_table(match, turn, hands, goals, rows, stock, centre, next_pile, completed)


def _take(table: Table, data: JSON) -> Table:
    """A deal or a draw: cards from the top of the stock to a hand."""
    match, turn, hands, goals, rows, stock, centre, next_pile, completed = table
    seat, cards = data["seat"], data["cards"]
    hand = (*hands[seat], *cards)
    hands = (hand, hands[1]) if seat == 0 else (hands[0], hand)
    return make_table(match, turn, hands, goals, rows, stock[len(cards):], centre, next_pile, completed)


def _goal_tops(t: Table, data: JSON) -> Table:
    """The goal tops are compared: the higher one starts turn 1 (on a tie the goal pack is shuffled again)."""
    first = data["first"]
    if first is None:
        return t
    return make_table(t.match, make_turn(first, 1, False, 0), t.hands, t.goals, t.rows, t.stock, t.centre,
                      t.next_pile, t.completed)


def _next_turn(turn: Turn, data: JSON) -> Turn:
    """A discard or an end_turn closes the turn: the other seat's turn begins."""
    current, number, _, _ = turn
    return make_turn(1 - current, number + 1, False, data["dead_turns"])


def _end_turn(table: Table, data: JSON) -> Table:
    match, turn, hands, goals, rows, stock, centre, next_pile, completed = table
    return make_table(match, _next_turn(turn, data), hands, goals, rows, stock, centre, next_pile, completed)


# The hot handlers below take the table apart in one unpacking: cheaper than reading its fields one by one.

def _play(table: Table, data: JSON) -> Table:
    match, turn, hands, goals, rows, stock, centre, next_pile, completed = table
    seat, card, source, where = data["seat"], data["card"], data["source"], data["center"]
    if source == "hand":
        hand = without_one(hands[seat], card)
        hands = (hand, hands[1]) if seat == 0 else (hands[0], hand)
    elif source == "goal":
        goal = goals[seat][1:]
        goals = (goal, goals[1]) if seat == 0 else (goals[0], goal)
    else:
        seat_rows = list(rows[seat])
        seat_rows[data["pile"]] = seat_rows[data["pile"]][:-1]
        rows = (tuple(seat_rows), rows[1]) if seat == 0 else (rows[0], tuple(seat_rows))
    if data["opened"]:
        centre = (*centre, (where, (card,)))
        next_pile = where + 1
    else:
        index = pile_index(table, where)
        cards = (*centre[index][1], card)
        if len(cards) == KING:
            centre = centre[:index] + centre[index + 1:]
            completed = completed + cards
        else:
            centre = (*centre[:index], (where, cards), *centre[index + 1:])
    if not turn.moved:
        current, number, _, dead_turns = turn
        turn = make_turn(current, number, True, dead_turns)
    return make_table(match, turn, hands, goals, rows, stock, centre, next_pile, completed)


def _discard(table: Table, data: JSON) -> Table:
    match, turn, hands, goals, rows, stock, centre, next_pile, completed = table
    seat, card, row = data["seat"], data["card"], data["pile"]
    hand = without_one(hands[seat], card)
    seat_rows = list(rows[seat])
    seat_rows[row] = (*seat_rows[row], card)
    if seat == 0:
        hands, rows = (hand, hands[1]), (tuple(seat_rows), rows[1])
    else:
        hands, rows = (hands[0], hand), (rows[0], tuple(seat_rows))
    return make_table(match, _next_turn(turn, data), hands, goals, rows, stock, centre, next_pile, completed)


def _game_over(table: Table, data: JSON) -> Table:
    points = data["points"]
    totals = data["totals"]
    result = GameResult(data["game"], data["winner"], (points["0"], points["1"]), data["reason"])
    m = table.match
    match = Match(m.target, m.max_turns, m.game, (totals["0"], totals["1"]), m.history + (result,),
                  data["match_over"])
    return table.with_(match=match)


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


class Recorder:
    """The events of one `start`/`decide` call and the table they lead to.

    `steps` holds (event, table before, table after) for each event, for the platform's fold (`evolve`).
    """

    __slots__ = ("table", "events", "steps")

    def __init__(self, table: Table | None) -> None:
        self.table = table
        self.events: list[Event] = []
        self.steps: list[tuple[Event, Table | None, Table]] = []

    def emit(self, event: Event) -> Table:
        before = self.table
        after = self.table = _HANDLERS[event.type](before, event.data)
        self.events.append(event)
        self.steps.append((event, before, after))
        return after

    def done(self) -> list[Event]:
        """The events, with the tables they lead to offered to the platform's fold that follows."""
        HANDOFF.offer(self.steps)
        return self.events


#: The tables the last `start`/`decide` computed: the platform folds its events onto the same table right
#: away, and `evolve` takes them instead of computing each twice (see `games.engine.handoff`).
HANDOFF = Handoff()


def evolve(table: Table | None, event: Event) -> Table:
    found = HANDOFF.take(table, event)
    if found is not None:
        return found
    return _HANDLERS[event.type](table, event.data)
