"""What one seat (or a spectator) may see, and full tables consistent with such a view.

Public: goal tops and sizes, every discard row, the centre piles, the completed cards, the stock size,
hand sizes, the turn and the match so far. Private: the viewer's own hand. Hidden from everyone: the
goal cards under the tops, the stock order, the other hand. `sample_state` deals the unseen cards at
random among those hidden places, which is what search bots play on.
"""

from __future__ import annotations

import random
from collections import Counter

from games.engine.cards import JOKER, french_deck
from games.engine.protocol import JSON
from games.rules.patience.scoring import result
from games.rules.patience.state import Cards, GameResult, Match, Table, Turn, show_zones
from games.rules.patience.variant import Variant


def card_set(variant: Variant) -> list[str]:
    """Every card of the game: the goal pack and the stock pack with its jokers."""
    return french_deck() + french_deck(variant.stock_jokers)


def view(table: Table, viewer: int | None) -> JSON:
    """Everything `viewer` sees: a copy of the match's view frame (`Match.frame`) with the table's values."""
    match, turn, hands, goals, rows, stock, centre, next_pile, completed, shown = table
    current, number, moved, dead_turns = turn
    hand0, hand1 = hands
    goal0, goal1 = goals
    if shown is None:  # a table built by hand
        shown = show_zones(centre, completed, rows)
    shown_piles, shown_completed, (rows0, rows1) = shown
    # The centre, the completed cards, the discard rows and the match's parts are read-only values (see
    # `games.engine.shared`) shared by every view; the rest of a view is the caller's own. `[*cards]` rather
    # than `list(cards)`: the same list, built without a call.
    out = match.frame.copy()
    out["turn"] = number
    out["moved_this_turn"] = moved
    out["dead_turns"] = dead_turns
    out["players"] = [
        {"hand": [*hand0] if viewer == 0 else None, "hand_count": len(hand0),
         "goal_top": goal0[0] if goal0 else None, "goal_count": len(goal0),
         "discards": rows0},
        {"hand": [*hand1] if viewer == 1 else None, "hand_count": len(hand1),
         "goal_top": goal1[0] if goal1 else None, "goal_count": len(goal1),
         "discards": rows1},
    ]
    out["stock_count"] = len(stock)
    out["centre"], out["completed"] = shown_piles, shown_completed
    out["next_pile_id"] = next_pile
    if match.over:
        out["result"] = result(table)
    else:
        out["current"] = current
    return out


def sample_state(variant: Variant, view_: JSON, viewer: int | None, rng: random.Random) -> Table:
    """A full table consistent with `view_`: unseen cards dealt at random among the hidden places."""
    players = view_["players"]
    known: list[str] = []
    for player in players:
        if player["hand"] is not None:
            known.extend(player["hand"])
        if player["goal_top"] is not None:
            known.append(player["goal_top"])
        for row in player["discards"]:
            known.extend(row)
    for pile in view_["centre"]:
        known.extend(pile["cards"])
    known.extend(view_["completed"])
    unseen = list((Counter(card_set(variant)) - Counter(known)).elements())
    rng.shuffle(unseen)
    # Goal piles come from the goal pack, which has no jokers: they take plain cards only.
    in_goals = sum(player["goal_count"] - 1 for player in players if player["goal_top"] is not None)
    plain = [card for card in unseen if card != JOKER]
    goal_cards = plain[:in_goals]
    unseen = plain[in_goals:] + [card for card in unseen if card == JOKER]
    rng.shuffle(unseen)
    taken = 0

    def deal(count: int) -> Cards:
        nonlocal taken
        cards = tuple(unseen[taken:taken + count])
        taken += count
        return cards

    hands = []
    goals = []
    for player in players:
        hand = player["hand"]
        hands.append(tuple(hand) if hand is not None else deal(player["hand_count"]))
        top = player["goal_top"]
        below = player["goal_count"] - 1 if top is not None else 0
        goals.append(() if top is None else (top, *goal_cards[:below]))
        goal_cards = goal_cards[below:]
    stock = deal(view_["stock_count"])
    rows = tuple(tuple(tuple(row) for row in player["discards"]) for player in players)
    centre = tuple((pile["id"], tuple(pile["cards"])) for pile in view_["centre"])
    history = tuple(GameResult(g["game"], g["winner"], (g["points"]["0"], g["points"]["1"]), g["reason"])
                    for g in view_["games"])
    totals = view_["totals"]
    match = Match(view_["target"], view_["max_turns"], view_["game"], (totals["0"], totals["1"]), history,
                  view_["over"])
    current = view_["current"]
    turn = Turn(0 if current is None else current, view_["turn"], view_["moved_this_turn"], view_["dead_turns"])
    completed = tuple(view_["completed"])
    return Table(match, turn, (hands[0], hands[1]), (goals[0], goals[1]), rows, stock, centre,
                 view_["next_pile_id"], completed, show_zones(centre, completed, rows))
