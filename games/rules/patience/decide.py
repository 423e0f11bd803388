"""`decide`: check one action of the seat to act and emit every fact up to the next decision.

A play may empty the goal pile (the game ends at once) or the hand (five more cards are drawn and the
turn goes on). A discard or an `end_turn` closes the turn and passes it: dead turns are counted, a
blocked game or the turn limit ends the game, otherwise the hand is refilled (Spite and Malice) or the
next player fills theirs as their turn begins (Diavoletto).

The facts are worked out from the table the action is taken on, and what the action itself takes away
(a discard one card of the hand): the platform folds the events right after, so applying them here too
would compute every table twice. Only the rare paths that read a table some events lead to (a game
ends, a pile is recycled, a game is dealt) fold those events with `evolve` first.

A discard, most steps of a game, repeats a few thousand values (seat, card, row, dead turns): its event is
built once and shared (`_DISCARDED`; its data is read-only, see `games.engine.shared`).
"""

from __future__ import annotations

from games.engine.cards import FRENCH_VALUE
from games.engine.protocol import Action, Event, IllegalAction, Rng
from games.engine.shared import SharedDict
from games.engine.values import new
from games.rules.patience.evolve import evolve
from games.rules.patience.moves import NEW, check_ending, check_play, may_end
from games.rules.patience.scoring import finish_game
from games.rules.patience.state import HAND_SIZE, JOKER, KING, ROWS, SEATS, Table
from games.rules.patience.turns import draw, recycle_at_once
from games.rules.patience.variant import Variant

#: Two consecutive turns with nothing to draw and no card moved end the game as blocked.
BLOCKING_DEAD_TURNS = 2


#: (seat, card, row, dead turns) -> the `discard` event, for every value a game reaches: built with the module,
#: as a game would meet most of them for the first time (a table set up by hand may need another one).
_DISCARDED: dict[tuple[int, str, int, int], Event] = {
    (seat, card, row, dead_turns): Event(
        "discard", SharedDict(seat=seat, card=card, pile=row, dead_turns=dead_turns), None, None, seat)
    for seat in range(SEATS) for card in (*FRENCH_VALUE, JOKER) for row in range(ROWS)
    for dead_turns in range(BLOCKING_DEAD_TURNS + 1)
}


def decide(variant: Variant, table: Table, seat: int, action: Action, rng: Rng) -> list[Event]:
    """The events `action` of `seat` (the seat to act, action already shape-checked) causes."""
    kind = action["type"]
    if kind == "discard":
        check_ending(variant, table, seat)
        card, row = action["card"], action["pile"]
        hand = table.hands[seat]
        if card not in hand:
            raise IllegalAction("card_not_in_hand", f"{card} is not in your hand")
        if not 0 <= row < ROWS:
            raise IllegalAction("no_such_row", f"discard row {row} does not exist (rows are 0..3)")
        return _close_turn(variant, table, rng, card, row, len(hand) - 1)
    if kind == "play":
        return _play(variant, table, seat, action, rng)
    if kind == "end_turn":
        check_ending(variant, table, seat)
        if not may_end(variant, table, seat):
            raise IllegalAction("must_discard", "put one card of your hand on a discard row to end the turn")
        return _close_turn(variant, table, rng, None, 0, len(table.hands[seat]))
    raise IllegalAction("unknown_action", f"unknown action type {kind!r}")


def _play(variant: Variant, table: Table, seat: int, action: Action, rng: Rng) -> list[Event]:
    (source, row, card, where), pile_value = check_play(variant, table, seat, action)
    opened = where == NEW
    if opened:
        where = table.next_pile
    data = {"seat": seat, "source": source, "card": card, "center": where, "opened": opened,
            "completed": pile_value == KING - 1}
    if row is not None:
        data["pile"] = row
    goal = table.goals[seat]
    if source == "goal":
        data["goal_top"] = goal[1] if len(goal) > 1 else None
    play = new(Event, ("play", data, None, None, seat))  # positionally (`new`): a play is a step in four
    if source == "goal" and len(goal) == 1:
        return [play, *finish_game(variant, evolve(table, play), rng, "goal_emptied", seat)]
    if source == "hand" and len(table.hands[seat]) == 1:  # the draw recycles first if the stock is short
        return draw(variant, evolve(table, play), seat, HAND_SIZE, rng, "empty_hand", [play])
    if data["completed"] and variant.recycle_at_once:
        return recycle_at_once(variant, evolve(table, play), rng, [play])
    return [play]


def _close_turn(variant: Variant, table: Table, rng: Rng, card: str | None, row: int, held: int) -> list[Event]:
    """The discard of `card` on `row` (an end_turn when `card` is None) that passes the turn, leaving `held`
    cards in the hand; then the end of the game or the draws.

    A turn is dead when no card went to the centre and nothing is left to draw (stock and completed
    empty): without moves nothing was drawn or completed during the turn, so this is also how it began.
    Closing the turn changes neither the stock, the completed piles nor the other hand, which the draws
    read from `table`.
    """
    match, turn, hands, _, _, stock, _, _, completed, _ = table
    seat, number, moved, dead_turns = turn
    dead_turns = dead_turns + 1 if not (moved or stock or completed) else 0
    if card is None:
        closing = Event("end_turn", {"seat": seat, "dead_turns": dead_turns}, None, None, seat)
    else:
        try:
            closing = _DISCARDED[seat, card, row, dead_turns]
        except KeyError:  # a table no game reaches (set up by hand)
            closing = Event("discard", {"seat": seat, "card": card, "pile": row, "dead_turns": dead_turns},
                                 None, None, seat)
    if dead_turns >= BLOCKING_DEAD_TURNS:
        return [closing, *finish_game(variant, evolve(table, closing), rng, "blocked")]
    if number >= match.max_turns:
        return [closing, *finish_game(variant, evolve(table, closing), rng, "turn_limit")]
    if variant.draw_at_turn_start:  # the next player fills the hand as the turn begins
        drawer, reason = 1 - seat, "turn_start"
        held = len(hands[drawer])
    else:  # this player refills it now
        drawer, reason = seat, "refill"
    if held >= HAND_SIZE:
        return [closing]
    return draw(variant, table, drawer, HAND_SIZE - held, rng, reason, [closing])  # `fill_hand`, inlined
