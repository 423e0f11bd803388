"""Setting up a game: the goal piles (redealt while the two tops tie), the stock, the hands, the first turn.

Used by `start` for the first game and by `decide` for every further game of a match, so each game of a
match is dealt exactly like the first one, with fresh shuffles.

Shuffles, in order: the goal pack (the 52 cards in `french_deck()` order: spades, hearts, diamonds, clubs,
each A..K), again while the tops tie; then the stock pack (the same 52 followed by the jokers). Goal cards
0-25 are seat 0's pile (card 0 face up), 26-51 seat 1's; the stock pack's first `initial_hand` cards go
to seat 0, the next ones to seat 1, the rest is the stock (top first).
"""

from __future__ import annotations

from games.engine.cards import FRENCH_VALUE, french_deck
from games.engine.chance import shuffle_event
from games.engine.protocol import JSON, Event, Rng
from games.rules.patience.evolve import evolve
from games.rules.patience.state import GOAL_SIZE, SEATS, Table, fresh_zones, with_table
from games.rules.patience.turns import fill_hand
from games.rules.patience.variant import Variant

#: The packs as the shuffle sorts them before shuffling (`games.engine.chance`): its sort is then cheap. The
#: stock packs by number of jokers (a variant has up to four).
_GOAL_PACK = tuple(sorted(french_deck()))
_STOCK_PACKS = tuple(tuple(sorted(french_deck(jokers))) for jokers in range(5))


def deal_game(variant: Variant, table: Table, rng: Rng, number: int) -> list[Event]:
    """The set-up of game `number` up to the first player's first decision (`table`: the match before it)."""
    events = [Event("game_start", {"game": number})]
    while True:
        event, order = shuffle_event(rng, list(_GOAL_PACK), "goal")
        tops = [order[0], order[GOAL_SIZE]]
        values = [FRENCH_VALUE[top] for top in tops]
        first = None if values[0] == values[1] else int(values[1] > values[0])
        events += (event, Event("goal_tops", {"tops": tops, "first": first}))
        if first is not None:
            break
    event, order = shuffle_event(rng, list(_STOCK_PACKS[variant.stock_jokers]), "stock")
    events.append(event)
    size = variant.initial_hand
    if size:
        for seat in range(SEATS):
            cards = order[seat * size:(seat + 1) * size]
            events.append(Event("deal", {"seat": seat, "cards": cards}, public={"seat": seat, "count": len(cards)},
                                visible_to=frozenset((seat,))))
    if variant.draw_at_turn_start:
        # The first player fills the hand from the stock just dealt. `fill_hand` reads only the stock and the
        # completed piles (none in a new game) of the table it is given: the set-up need not be folded for it.
        dealt = with_table(fresh_zones(table.match), stock=tuple(order[SEATS * size:]))
        events += fill_hand(variant, dealt, first, size, rng, "turn_start", [])
    return events


def start_events(variant: Variant, options: JSON, rng: Rng) -> list[Event]:
    """The match set-up: its options, then the first game."""
    setup = Event("setup", {"target": options["target"], "max_turns": options["max_turns"]})
    return [setup, *deal_game(variant, evolve(None, setup), rng, 1)]
