"""Which plays, discards and turn endings are legal, and the checks `decide` runs on a proposed action.

Both sides share the variant's obligation and `may_end`. Where a card may go is written twice, on
purpose: `legal_actions` lists every place at once from the pile values (it runs at every step), while
`check_play` tests the one place an action names with `fits`. The generic engine tests play every listed
action and check that every other one is refused, which keeps the two in step.
"""

from __future__ import annotations

from games.engine.cards import FRENCH_VALUE
from games.engine.protocol import Action, IllegalAction
from games.rules.patience.state import JOKER, KING, ROWS, Table, pile_index
from games.rules.patience.variant import Move, Obligation, Variant

NEW = "new"
_VALUE = FRENCH_VALUE


class SharedAction(dict):
    """A legal action built once and handed out by every `legal_actions` call (a random playout lists
    about twenty discards per step; building them anew was a sixth of its time). It is a plain dict to
    every reader (JSON, ==, `dict(action)`), but refuses to be changed, since every caller shares it:
    copy it first (`dict(action)`) to build a variant of it."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise TypeError("legal actions are shared and read-only: change a copy, dict(action)")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore

    def __reduce__(self) -> tuple[type, tuple[dict]]:
        return SharedAction, (dict(self),)


#: The four discard actions of each card.
_DISCARDS: dict[str, tuple[Action, ...]] = {
    card: tuple(SharedAction(type="discard", card=card, pile=row) for row in range(ROWS))
    for card in (*_VALUE, JOKER)
}
_END_TURN = SharedAction(type="end_turn")
#: (variant, table, seat, obligation) of the last lookup: `decide` asks again about the table that
#: `legal_actions` has just listed, and tables are immutable, so the answer is the same object.
_last_obligation: tuple[Variant | None, Table | None, int, Obligation | None] = (None, None, -1, None)


def obligation(variant: Variant, table: Table, seat: int) -> Obligation | None:
    """The compulsory play in force for `seat` (the variant's rule, asked once per table)."""
    global _last_obligation
    last = _last_obligation
    if last[1] is table and last[2] == seat and last[0] is variant:
        return last[3]
    found = variant.obligation(table, seat)
    _last_obligation = (variant, table, seat, found)
    return found


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
    source, row, card, where = move
    if row is None:
        return {"type": "play", "source": source, "card": card, "center": where}
    return {"type": "play", "source": source, "pile": row, "card": card, "center": where}


#: (variant, centre, places) of the last `places` call: most steps leave the centre untouched (the same
#: tuple), so where each card may go is usually already known.
_last_places: tuple[Variant | None, tuple | None, dict[str, list[int | str]]] = (None, None, {})
#: The cards of each value (None: the joker), for `places`.
_CARDS_OF: dict[int | None, tuple[str, ...]] = {
    None: (JOKER,), **{value: tuple(card for card, v in _VALUE.items() if v == value) for value in range(1, 14)}
}


def places(variant: Variant, centre: tuple) -> dict[str, list[int | str]]:
    """Where each card may go (cards that may go nowhere are missing): pile ids in centre order, `NEW`
    first. A natural card goes on a pile one lower (an Ace opens a new pile); a joker on any pile from
    the variant's lowest value, and opens one when the variant allows it. The lists are shared: read only.
    """
    global _last_places
    last = _last_places
    if last[1] is centre and last[0] is variant:
        return last[2]
    jokers: list[int | str] = [NEW] if variant.joker_opens else []
    by_value: dict[int | None, list[int | str]] = {1: [NEW], None: jokers}
    low = variant.joker_min_pile
    for ident, cards in centre:
        value = len(cards)
        if value + 1 in by_value:
            by_value[value + 1].append(ident)
        else:
            by_value[value + 1] = [ident]
        if value >= low:
            jokers.append(ident)
    found = {card: wheres for value, wheres in by_value.items() if wheres for card in _CARDS_OF[value]}
    _last_places = (variant, centre, found)
    return found


def legal_actions(variant: Variant, table: Table, seat: int) -> list[Action]:
    """Every complete action the seat may take now ([] when it is not this seat's turn).

    Plays come first (hand, goal top, discard row tops), then the discards, then `end_turn`.
    """
    match, turn, hands, goals, rows, _, centre, _, _ = table
    if match.over or seat != turn.current:
        return []
    pending = obligation(variant, table, seat)
    if pending is not None and pending.moves is not None:
        return [move_action(move) for move in pending.moves]
    where_to = places(variant, centre)
    out: list[Action] = []
    hand = dict.fromkeys(hands[seat])
    for card in hand:
        if card in where_to:
            for where in where_to[card]:
                out.append({"type": "play", "source": "hand", "card": card, "center": where})
    goal = goals[seat]
    if goal and goal[0] in where_to:
        card = goal[0]
        for where in where_to[card]:
            out.append({"type": "play", "source": "goal", "card": card, "center": where})
    for row, cards in enumerate(rows[seat]):
        if cards and cards[-1] in where_to:
            card = cards[-1]
            for where in where_to[card]:
                out.append({"type": "play", "source": "discard", "pile": row, "card": card, "center": where})
    if pending is not None:
        return out
    for card in hand:
        out += _DISCARDS[card]
    if not hand or (variant.end_after_move and turn.moved):  # `may_end`, inlined: asked at every step
        out.append(_END_TURN)
    return out


def check_play(variant: Variant, table: Table, seat: int, action: Action) -> Move:
    """The play `action` names, or IllegalAction saying why it may not be made."""
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
    return move


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
