"""`decide`: check one action of the seat to act and emit every fact up to the next decision.

A play may empty the goal pile (the game ends at once) or the hand (five more cards are drawn and the
turn goes on). A discard or an `end_turn` closes the turn and passes it: dead turns are counted, a
blocked game or the turn limit ends the game, otherwise the hand is refilled (Spite and Malice) or the
next player fills theirs as their turn begins (Diavoletto).
"""

from __future__ import annotations

from games.engine.protocol import JSON, Action, Event, IllegalAction, Rng
from games.rules.patience.evolve import Recorder
from games.rules.patience.moves import NEW, check_ending, check_play, may_end
from games.rules.patience.scoring import finish_game
from games.rules.patience.state import HAND_SIZE, KING, ROWS, Table, goal_top, make_event
from games.rules.patience.turns import draw, fill_hand, open_turn
from games.rules.patience.variant import Variant

#: Two consecutive turns with nothing to draw and no card moved end the game as blocked.
BLOCKING_DEAD_TURNS = 2


def decide(variant: Variant, table: Table, seat: int, action: Action, rng: Rng) -> list[Event]:
    """The events `action` of `seat` (the seat to act, action already shape-checked) causes."""
    kind = action["type"]
    log = Recorder(table)
    if kind == "play":
        _play(log, variant, seat, action, rng)
    elif kind == "discard":
        check_ending(variant, table, seat)
        card, row = action["card"], action["pile"]
        if card not in table.hands[seat]:
            raise IllegalAction("card_not_in_hand", f"{card} is not in your hand")
        if not 0 <= row < ROWS:
            raise IllegalAction("no_such_row", f"discard row {row} does not exist (rows are 0..3)")
        _close_turn(log, variant, rng, "discard", {"seat": seat, "card": card, "pile": row})
    elif kind == "end_turn":
        check_ending(variant, table, seat)
        if not may_end(variant, table, seat):
            raise IllegalAction("must_discard", "put one card of your hand on a discard row to end the turn")
        _close_turn(log, variant, rng, "end_turn", {"seat": seat})
    else:
        raise IllegalAction("unknown_action", f"unknown action type {kind!r}")
    return log.done()


def _play(log: Recorder, variant: Variant, seat: int, action: Action, rng: Rng) -> None:
    table = log.table
    source, row, card, where = check_play(variant, table, seat, action)
    opened = where == NEW
    if opened:
        where = table.next_pile
        completes = False
    else:
        completes = len(next(cards for ident, cards in table.centre if ident == where)) == KING - 1
    data = {"seat": seat, "source": source, "card": card, "center": where, "opened": opened,
            "completed": completes}
    if row is not None:
        data["pile"] = row
    if source == "goal":
        data["goal_top"] = table.goals[seat][1] if len(table.goals[seat]) > 1 else None
    table = log.emit(make_event("play", data, None, None, seat))
    if source == "goal" and goal_top(table, seat) is None:
        finish_game(log, variant, rng, "goal_emptied", seat)
    elif source == "hand" and not table.hands[seat]:
        draw(log, variant, seat, HAND_SIZE, rng, "empty_hand")


def _close_turn(log: Recorder, variant: Variant, rng: Rng, kind: str, data: JSON) -> None:
    """Emit the discard or end_turn that passes the turn, then the end of the game or the draws.

    A turn is dead when no card went to the centre and nothing is left to draw (stock and completed
    empty): without moves nothing was drawn or completed during the turn, so this is also how it began.
    """
    match, turn, _, _, _, stock, _, _, completed = log.table
    seat, number, moved, dead_turns = turn
    dead_turns = dead_turns + 1 if not (moved or stock or completed) else 0
    data["dead_turns"] = dead_turns
    log.emit(make_event(kind, data, None, None, seat))
    if dead_turns >= BLOCKING_DEAD_TURNS:
        finish_game(log, variant, rng, "blocked")
    elif number >= match.max_turns:
        finish_game(log, variant, rng, "turn_limit")
    elif variant.draw_at_turn_start:
        open_turn(log, variant, rng)
    else:
        fill_hand(log, variant, seat, rng, "refill")
