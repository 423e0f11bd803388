"""Which plays, discards and turn endings are legal, and the checks `decide` runs on a proposed action.

Both sides share the variant's obligation and `may_end`. Where a card may go is written twice, on
purpose: `legal_actions` lists every place at once from the pile values (it runs at every step), while
`check_play` tests the one place an action names with `fits`. The generic engine tests play every listed
action and check that every other one is refused, which keeps the two in step.
"""

from __future__ import annotations

from games.engine.cards import FRENCH_VALUE
from games.engine.protocol import Action, IllegalAction
from games.engine.shared import SharedDict
from games.rules.patience.state import JOKER, KING, ROWS, Table, pile_index
from games.rules.patience.variant import Move, Obligation, Variant

NEW = "new"
_VALUE = FRENCH_VALUE


# Legal actions are built once and handed out by every `legal_actions` call (a random playout lists about
# twenty discards per step; building them anew was a sixth of its time): read-only `SharedDict`s, plain
# dicts to every reader. `dict(action)` gives a copy to change. So are the plays on the first few piles:
# pile ids start again at 0 in every game, so a match lists the same few hundred plays over and over.

#: The four discard actions of each card.
_DISCARDS: dict[str, tuple[Action, ...]] = {
    card: tuple(SharedDict(type="discard", card=card, pile=row) for row in range(ROWS))
    for card in (*_VALUE, JOKER)
}
_END_TURN = SharedDict(type="end_turn")


def _play_action(source: str, row: int | None, card: str, where: int | str) -> Action:
    """The play action of a card from `source` (a discard row only with "discard") to the centre pile `where`."""
    if row is None:
        return {"type": "play", "source": source, "card": card, "center": where}
    return {"type": "play", "source": source, "pile": row, "card": card, "center": where}


class _PlaysTo(dict):
    """The play actions of one card from one source, by centre pile: shared for a new pile and piles 0 .. 7
    (built with the module), built afresh for a later pile (`__missing__`, which keeps nothing)."""

    __slots__ = ("source", "row", "card")

    def __init__(self, source: str, row: int | None, card: str) -> None:
        super().__init__((where, SharedDict(_play_action(source, row, card, where))) for where in (NEW, *range(8)))
        self.source, self.row, self.card = source, row, card

    def __missing__(self, where: int | str) -> Action:
        return _play_action(self.source, self.row, self.card, where)


#: The play actions: `_PLAYS[source, discard row or None][card][where]` (some 2,900 of them shared).
_PLAYS: dict[tuple[str, int | None], dict[str, _PlaysTo]] = {
    (source, row): {card: _PlaysTo(source, row, card) for card in (*_VALUE, JOKER)}
    for source, row in (("hand", None), ("goal", None), *(("discard", row) for row in range(ROWS)))
}
_HAND_PLAYS = _PLAYS["hand", None]
_GOAL_PLAYS = _PLAYS["goal", None]
_ROW_PLAYS = tuple(_PLAYS["discard", row] for row in range(ROWS))
_ROW_INDEXES = range(ROWS)
#: The distinct cards of a hand, in hand order (`dict.fromkeys`, looked up once: the cheapest way).
_distinct = dict.fromkeys


def obligation(variant: Variant, table: Table, seat: int) -> Obligation | None:
    """The compulsory play in force for `seat`. The usual case, no obligation card in reach (hand or goal
    top), is answered without asking the variant."""
    cards = variant.obligation_cards
    goal = table.goals[seat]
    if cards.isdisjoint(table.hands[seat]) and not (goal and goal[0] in cards):
        return None
    return variant.obligation(table, seat)


def fits(variant: Variant, pile_value: int, card: str) -> bool:
    """May `card` go on a pile of `pile_value` (0 = opening a new pile)?"""
    value = FRENCH_VALUE.get(card)
    if value is not None:
        return value == pile_value + 1
    if pile_value == 0:
        return variant.joker_opens
    return variant.joker_min_pile <= pile_value < KING


def may_end(variant: Variant, table: Table, seat: int) -> bool:
    """May the turn end without a discard (end_turn)?"""
    return not table.hands[seat] or (variant.end_after_move and table.turn.moved)


def move_action(move: Move) -> Action:
    """The play action of `move`: a shared one when the pile is one of the first few."""
    source, row, card, where = move
    return _PLAYS[source, row][card][where]


Places = list[list[int | str] | None]
#: The index of each card in `places`: its value (Ace 1 .. King 13), 0 for the joker.
_PLACE_OF: dict[str, int] = {**_VALUE, JOKER: 0}


def places(variant: Variant, centre: tuple) -> Places:
    """Where the cards of each value may go, indexed by `_PLACE_OF[card]`, None where they may go nowhere:
    pile ids in centre order, `NEW` first. A natural card goes on a pile one lower (an Ace opens a new pile);
    a joker on any pile from the variant's lowest value, and opens one when the variant allows it.
    (By value, not by card: a centre is listed at the cost of its piles, not of every card that fits.)
    """
    found: Places = [None] * (KING + 1)
    found[1] = [NEW]
    jokers: list[int | str] = [NEW] if variant.joker_opens else []
    low = variant.joker_min_pile
    for ident, cards in centre:
        value = len(cards)
        wheres = found[value + 1]
        if wheres is None:
            found[value + 1] = [ident]
        else:
            wheres.append(ident)
        if value >= low:
            jokers.append(ident)
    if jokers:
        found[0] = jokers
    return found


def legal_actions(variant: Variant, table: Table, seat: int) -> list[Action]:
    """Every complete action the seat may take now ([] when it is not this seat's turn).

    Plays come first (hand, goal top, discard row tops), then the discards, then `end_turn`.
    """
    match, turn, hands, goals, rows, _, centre, _, _, _ = table
    if match.over or seat != turn.current:
        return []
    hand = hands[seat]
    goal = goals[seat]
    cards = variant.obligation_cards  # `obligation`, inlined: asked at every step
    in_reach = not cards.isdisjoint(hand) or (goal and goal[0] in cards)
    pending = variant.obligation(table, seat) if in_reach else None
    if pending is not None and pending.moves is not None:
        return [move_action(move) for move in pending.moves]
    where_to = places(variant, centre)
    out: list[Action] = []
    distinct = _distinct(hand)
    for card in distinct:
        wheres = where_to[_PLACE_OF[card]]
        if wheres is not None:
            known = _HAND_PLAYS[card]
            for where in wheres:
                out.append(known[where])
    if goal:
        card = goal[0]
        wheres = where_to[_PLACE_OF[card]]
        if wheres is not None:
            known = _GOAL_PLAYS[card]
            for where in wheres:
                out.append(known[where])
    seat_rows = rows[seat]
    for row in _ROW_INDEXES:  # not `enumerate`: building its pairs costs more than indexing
        cards = seat_rows[row]
        if cards:
            card = cards[-1]
            wheres = where_to[_PLACE_OF[card]]
            if wheres is not None:
                known = _ROW_PLAYS[row][card]
                for where in wheres:
                    out.append(known[where])
    if pending is not None:
        return out
    for card in distinct:
        out += _DISCARDS[card]
    if not hand or (variant.end_after_move and turn.moved):  # `may_end`, inlined: asked at every step
        out.append(_END_TURN)
    return out


def check_play(variant: Variant, table: Table, seat: int, action: Action) -> tuple[Move, int]:
    """The play `action` names and the value of the pile it goes on (0: a new pile), or IllegalAction
    saying why it may not be made."""
    source, card, where = action["source"], action["card"], action["center"]
    row = action.get("pile")
    if source == "discard":
        if row is None:
            raise IllegalAction("invalid_action", "a play from a discard row needs 'pile' (0..3)")
        if not 0 <= row < ROWS:
            raise IllegalAction("no_such_row", f"discard row {row} does not exist (rows are 0..3)")
        cards = table.rows[seat][row]
        if not cards or cards[-1] != card:
            raise IllegalAction("not_on_top", f"{card} is not the top card of your discard row {row}")
    elif row is not None:
        raise IllegalAction("invalid_action", "'pile' names a discard row and only goes with source 'discard'")
    elif source == "hand":
        if card not in table.hands[seat]:
            raise IllegalAction("card_not_in_hand", f"{card} is not in your hand")
    else:
        goal = table.goals[seat]
        if not goal or goal[0] != card:
            raise IllegalAction("not_goal_top", f"{card} is not the face-up top card of your goal pile")
    if where == NEW:
        pile_value = 0
    else:
        index = pile_index(table, where)
        if index < 0:
            raise IllegalAction("no_such_pile", f"there is no centre pile {where}")
        pile_value = len(table.centre[index][1])
    move: Move = (source, row, card, where)
    pending = obligation(variant, table, seat)
    if pending is not None and pending.moves is not None and move not in pending.moves:
        raise IllegalAction(pending.code, pending.message)
    if not fits(variant, pile_value, card):
        raise IllegalAction("invalid_play", _misfit(variant, card, pile_value))
    return move, pile_value


def _misfit(variant: Variant, card: str, pile_value: int) -> str:
    if card == JOKER:
        if pile_value == 0:
            return "a joker cannot stand for an Ace: it cannot open a pile"
        return "a joker cannot stand for a Two: it cannot go on a pile of value 1"
    if pile_value == 0:
        return f"only an Ace{' or a joker' if variant.joker_opens else ''} can open a pile"
    return f"{card} does not fit on a pile of value {pile_value}"


def check_ending(variant: Variant, table: Table, seat: int) -> None:
    """Refuse a discard or end_turn while a compulsory play is pending."""
    pending = obligation(variant, table, seat)
    if pending is not None:
        raise IllegalAction(pending.code, pending.message)
