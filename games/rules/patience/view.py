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
from games.engine.shared import SharedDict, SharedList
from games.rules.patience.scoring import result
from games.rules.patience.state import Cards, GameResult, Match, Pile, Table, Turn
from games.rules.patience.variant import Variant


def card_set(variant: Variant) -> list[str]:
    """Every card of the game: the goal pack and the stock pack with its jokers."""
    return french_deck() + french_deck(variant.stock_jokers)


# A step seldom changes the centre, the completed cards or the match, so their parts of a view are usually
# those of the previous view: read-only values (see `games.engine.shared`) kept in single-entry
# memos keyed on those zones by identity. (Discard rows change too often for a memo to pay.)

#: (centre, completed, centre as shown, completed as shown).
_shown_centre: tuple[tuple[Pile, ...], Cards, JSON, JSON] = ((), (), SharedList(), SharedList())
#: (match, the frame of its views).
_shown_match: tuple[Match | None, JSON] = (None, {})
#: Frames by match value, for the matches a new object repeats (each single-game match starts from the same
#: one); forgotten when `_MAX_FRAMES` are kept.
_frames: dict[Match, JSON] = {}
_MAX_FRAMES = 64


def _show_centre(centre: tuple[Pile, ...], completed: Cards) -> tuple[JSON, JSON]:
    """The centre piles and the completed cards as shown. A play changes one pile (or opens one at the end,
    or completes one, moving the later ones down a place), so a pile found at the same place, or the next
    one, in the last view shares its part of that view, and so do unchanged completed cards."""
    global _shown_centre
    last, last_completed, last_piles, completed_shown = _shown_centre
    known = len(last)
    piles = []
    index = 0
    for pile in centre:  # a count, not `enumerate`: building its pairs costs more
        if index < known and last[index] is pile:
            shown = last_piles[index]
        elif index + 1 < known and last[index + 1] is pile:
            shown = last_piles[index + 1]
        else:
            ident, cards = pile
            shown = SharedDict(id=ident, value=len(cards), cards=SharedList(cards))
        piles.append(shown)
        index += 1  # noqa: SIM113
    if completed is not last_completed:
        completed_shown = SharedList(completed)
    piles_shown = SharedList(piles)
    _shown_centre = (centre, completed, piles_shown, completed_shown)
    return piles_shown, completed_shown


def _view_frame(match: Match) -> JSON:
    """Every key of a view, in order, with the match's parts filled in and the table's left to `view`.

    A view is a copy of its match's frame with the rest set: copying a dict of 16 keys costs half as much
    as building it. The frame itself is never handed out.
    """
    global _shown_match
    frame = _frames.get(match)
    if frame is None:
        frame = {
            "game": match.game, "target": match.target, "max_turns": match.max_turns,
            "turn": None, "current": None, "moved_this_turn": None, "dead_turns": None, "players": None,
            "stock_count": None, "centre": None, "next_pile_id": None, "completed": None,
            "totals": SharedDict({"0": match.totals[0], "1": match.totals[1]}),
            "games": SharedList([SharedDict(game.as_json()) for game in match.history]),
            "over": match.over, "result": None,
        }
        if len(_frames) >= _MAX_FRAMES:
            _frames.clear()
        _frames[match] = frame
    _shown_match = (match, frame)
    return frame


def view(table: Table, viewer: int | None) -> JSON:
    match, turn, hands, goals, rows, stock, centre, next_pile, completed = table
    current, number, moved, dead_turns = turn
    hand0, hand1 = hands
    goal0, goal1 = goals
    (row00, row01, row02, row03), (row10, row11, row12, row13) = rows
    last, frame = _shown_match  # the memos, checked here: no call when they hold
    if last is not match:
        frame = _view_frame(match)
    last, last_completed, piles, completed_shown = _shown_centre
    if last is not centre or last_completed is not completed:
        piles, completed_shown = _show_centre(centre, completed)
    shown = frame.copy()
    shown["turn"] = number
    shown["moved_this_turn"] = moved
    shown["dead_turns"] = dead_turns
    # `[*cards]` rather than `list(cards)`: the same list, built without a call.
    shown["players"] = [
        {"hand": [*hand0] if viewer == 0 else None, "hand_count": len(hand0),
         "goal_top": goal0[0] if goal0 else None, "goal_count": len(goal0),
         "discards": [[*row00], [*row01], [*row02], [*row03]]},
        {"hand": [*hand1] if viewer == 1 else None, "hand_count": len(hand1),
         "goal_top": goal1[0] if goal1 else None, "goal_count": len(goal1),
         "discards": [[*row10], [*row11], [*row12], [*row13]]},
    ]
    shown["stock_count"] = len(stock)
    shown["centre"] = piles
    shown["next_pile_id"] = next_pile
    shown["completed"] = completed_shown
    if match.over:
        shown["result"] = result(table)
    else:
        shown["current"] = current
    return shown


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
    return Table(match, turn, (hands[0], hands[1]), (goals[0], goals[1]), rows, stock, centre,
                 view_["next_pile_id"], tuple(view_["completed"]))
