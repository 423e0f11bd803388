"""The table of a two-player competitive patience (Spite and Malice, Diavoletto) as immutable values.

Both games share every zone: goal piles (top face up), private hands, four discard rows per player, a
face-down stock, shared centre building piles with stable ids, and the completed piles waiting to be
recycled. A centre pile's value is simply how many cards it holds (it starts with an Ace or a joker
standing for one, and every card adds one), so it is never stored separately.

`Table` and `Turn`, rebuilt by nearly every event, are named tuples changed through the keyword copier
`with_table` (`games.engine.values`); the fold's hottest handlers build them positionally. The rarely
changed parts (the match, its game results) are frozen dataclasses.

Views are asked for at every step, and most steps change neither the centre, the completed cards nor the
match, so their parts of a view are kept with them, built when they change: `Table.shown` (the centre, the
completed cards and each player's discard rows as views show them) and `Match.frame` (every key of a view,
the match's parts filled in). Both are derived: the fold keeps them in step, and a table built by hand may
leave `shown` None.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from games.engine.shared import SharedDict, SharedList
from games.engine.values import copier

Cards = tuple[str, ...]
#: A centre pile: (stable id, cards bottom..top). Its value is len(cards).
Pile = tuple[int, Cards]
#: Four discard rows of one player, each bottom..top (the top is the last card).
Rows = tuple[Cards, Cards, Cards, Cards]

SEATS = 2
ROWS = 4
GOAL_SIZE = 26
HAND_SIZE = 5
KING = 13
JOKER = "JK"
EMPTY_ROWS: Rows = ((), (), (), ())


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one game of a match."""

    game: int
    winner: int | None
    points: tuple[int, int]
    reason: str  # "goal_emptied" | "blocked" | "turn_limit"

    def as_json(self) -> dict[str, Any]:
        return {"game": self.game, "winner": self.winner, "reason": self.reason,
                "points": {"0": self.points[0], "1": self.points[1]}}


@dataclass(frozen=True, slots=True)
class Match:
    """The match around the current game: options, game number, totals, games played, whether it is over."""

    target: int | None
    max_turns: int
    game: int                      # number of the game being played (1, 2, ...)
    totals: tuple[int, int]        # match points so far
    history: tuple[GameResult, ...]
    over: bool                     # the match is finished
    #: Derived: every key of a view, in order, the match's values filled in (read-only ones shared by every
    #: view), the others None; `view` copies it and fills in the table's values.
    frame: dict[str, Any] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "frame", {
            "game": self.game, "target": self.target, "max_turns": self.max_turns,
            "turn": None, "current": None, "moved_this_turn": None, "dead_turns": None, "players": None,
            "stock_count": None, "centre": None, "next_pile_id": None, "completed": None,
            "totals": SharedDict({"0": self.totals[0], "1": self.totals[1]}),
            "games": SharedList([SharedDict(game.as_json()) for game in self.history]),
            "over": self.over, "result": None,
        })


class Turn(NamedTuple):
    """Whose turn it is and what this turn has done so far."""

    current: int
    number: int                    # turn number within the game (1, 2, ...; 0 before the first turn)
    moved: bool                    # a card went to the centre this turn
    dead_turns: int                # consecutive dead turns just before this one


class Table(NamedTuple):
    """Everything about a match in progress: the current game's zones, its turn, the match so far.

    Split in three so that the frequent events (a play, a discard, a draw) rebuild one small object.
    """

    match: Match
    turn: Turn
    hands: tuple[Cards, Cards]
    goals: tuple[Cards, Cards]     # top first; the top is face up
    rows: tuple[Rows, Rows]
    stock: Cards                   # top first
    centre: tuple[Pile, ...]       # in opening order
    next_pile: int                 # id the next opened pile gets (never reused within a game)
    completed: Cards               # cards of piles that reached the King, in completion order
    #: Derived: (the centre piles, the completed cards, each seat's discard rows) as views show them, read-only
    #: (`show_zones`); None on a table built by hand, whose views work them out.
    shown: Shown | None = None

    #: Not stored in snapshots: built again from the centre and the completed cards (`PatienceEngine.rederive`).
    DERIVED_FIELDS = ("shown",)


with_table = copier(Table)


#: `Table.shown`: the centre piles, the completed cards and each seat's four discard rows, as views show them.
Shown = tuple[SharedList, SharedList, tuple[SharedList, SharedList]]


def show_pile(ident: int, cards: Cards) -> SharedDict:
    """A centre pile as views show it."""
    return SharedDict({"id": ident, "value": len(cards), "cards": SharedList(cards)})


def show_rows(rows: Rows) -> SharedList:
    """One seat's discard rows as views show them."""
    return SharedList([SharedList(row) for row in rows])


def show_zones(centre: tuple[Pile, ...], completed: Cards, rows: tuple[Rows, Rows]) -> Shown:
    """`Table.shown` of a centre, completed cards and both seats' discard rows."""
    return (SharedList([show_pile(ident, cards) for ident, cards in centre]), SharedList(completed),
            (show_rows(rows[0]), show_rows(rows[1])))


def show_row(shown_rows: tuple[SharedList, SharedList], seat: int, row: int, cards: Cards
             ) -> tuple[SharedList, SharedList]:
    """Both seats' discard rows as shown (`shown_rows`), with row `row` of `seat` now holding `cards`: the
    other rows are shared."""
    seat_rows = [*shown_rows[seat]]
    seat_rows[row] = SharedList(cards)
    changed = SharedList(seat_rows)
    return (changed, shown_rows[1]) if seat == 0 else (shown_rows[0], changed)


NOTHING_SHOWN: Shown = show_zones((), (), (EMPTY_ROWS, EMPTY_ROWS))


NO_TURN = Turn(0, 0, False, 0)


def empty_table(target: int | None, max_turns: int) -> Table:
    """The match before its first game is dealt."""
    return fresh_zones(Match(target, max_turns, 0, (0, 0), (), False))


def fresh_zones(match: Match) -> Table:
    """Every zone empty, before a game is dealt."""
    return Table(match, NO_TURN, ((), ()), ((), ()), (EMPTY_ROWS, EMPTY_ROWS), (), (), 0, (), NOTHING_SHOWN)


def pile_index(table: Table, pile_id: int) -> int:
    """Position of the centre pile `pile_id`, -1 when no such pile is on the table."""
    index = 0
    for ident, _ in table.centre:  # a count, not `enumerate`: building its pairs costs more (asked at every play)
        if ident == pile_id:
            return index
        index += 1  # noqa: SIM113
    return -1


def table_cards(table: Table) -> list[str]:
    """Every card on the table, in every zone."""
    out: list[str] = []
    for seat in range(SEATS):
        out.extend(table.hands[seat])
        out.extend(table.goals[seat])
        for row in table.rows[seat]:
            out.extend(row)
    out.extend(table.stock)
    for _, cards in table.centre:
        out.extend(cards)
    out.extend(table.completed)
    return out
