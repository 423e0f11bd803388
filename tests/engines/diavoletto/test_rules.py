"""Diavoletto: every conformance scenario of rules/diavoletto.md §12, plus set-up, recycling, matches and
what differs from Spite and Malice."""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

from games.engine.cards import french_deck
from games.engine.chance import Chance
from games.engine.runner import begin, random_playout
from games.rules.diavoletto import ENGINE
from tests.engines.spite_and_malice import positions
from tests.engines.spite_and_malice.positions import (
    SEED,
    all_discards,
    discards,
    goal_pack,
    goal_play,
    hand_play,
    play,
    plays,
    position,
    row_play,
    same,
    types,
)

END_TURN = {"type": "end_turn"}
legal = partial(positions.legal, ENGINE)
refused = partial(positions.refused, ENGINE)


def discard(card, row=0):
    return {"type": "discard", "card": card, "pile": row}


def _start(decks=(), options=None):
    position_, events = begin(ENGINE, 2, ENGINE.normalize_options(options or {}, 2), Chance(SEED, decks))
    return position_.state, events


# -- conformance scenarios (§12) ---------------------------------------------------------------------


def test_1_opening_draw():
    goal = goal_pack("QH", "4C")
    stock = french_deck(2)
    table, events = _start([goal, stock])
    assert types(events) == ["setup", "game_start", "shuffle", "goal_tops", "shuffle", "draw"]
    assert table.turn.current == 0
    assert table.hands == (tuple(stock[:5]), ())
    assert events[-1].data == {"seat": 0, "cards": stock[:5], "reason": "turn_start"}
    assert events[-1].visible_to == frozenset({0}) and events[-1].public == {"seat": 0, "count": 5,
                                                                             "reason": "turn_start"}
    assert len(table.stock) == 49 and Counter(table.stock) == Counter(stock[5:])


def test_2_joker_cannot_open_a_pile():
    table = position(ENGINE, hands=["JK 2S 5D 9C QH", "3S 4S 6S 8S 10S"], goals=["7S 9H", "KC QC"])
    actions = legal(table)
    assert plays(actions) == []
    assert same(actions, all_discards("JK 2S 5D 9C QH")) and len(actions) == 20
    refused(table, 0, hand_play("JK", "new"), "invalid_play")


def test_3_joker_may_be_a_two():
    table = position(ENGINE, hands=["JK 4S 6H 8D 10C", "3S 4C 6S 8S 10S"], goals=["7S 9H", "KC QC"],
                     centre=["AS"])
    assert hand_play("JK", 0) in legal(table)
    table, _ = play(ENGINE, table, 0, hand_play("JK", 0))
    assert table.centre == ((0, ("AS", "JK")),)
    assert hand_play("4S", 0) not in legal(table)  # the pile is worth 2 now: a 3 goes on it, not a 4


def test_4_ace_before_discarding_but_not_necessarily_first():
    table = position(ENGINE, hands=["AH 5C 9D 9S KD", "3S 4C 6S 8S 10S"], goals=["7S 9H", "KC QC"],
                     centre=["AS 2S 3S 4S"])
    assert same(legal(table), [hand_play("AH", "new"), hand_play("5C", 0)])
    refused(table, 0, discard("9D"), "must_play_ace")
    after_five, _ = play(ENGINE, table, 0, hand_play("5C", 0))
    assert discards(legal(after_five)) == []
    refused(after_five, 0, discard("9D"), "must_play_ace")
    after_ace, _ = play(ENGINE, table, 0, hand_play("AH", "new"))
    assert same(discards(legal(after_ace)), all_discards("5C 9D 9S KD"))
    assert END_TURN not in legal(after_ace)
    refused(after_ace, 0, END_TURN, "must_discard")


def test_5_ace_turned_up_from_the_goal_pile():
    table = position(ENGINE, hands=["9D 9S KD 10C 3H", "3S 4C 6S 8S 10S"], goals=["6S AC 9H", "KC QC"],
                     centre=["AS 2S 3S 4S 5S"])
    table, events = play(ENGINE, table, 0, goal_play("6S", 0))
    assert events[0].data["goal_top"] == "AC"
    assert discards(legal(table)) == [] and goal_play("AC", "new") in legal(table)
    refused(table, 0, discard("9D"), "must_play_ace")
    table, _ = play(ENGINE, table, 0, goal_play("AC", "new"))
    assert discards(legal(table))


def test_6_only_column_tops():
    table = position(ENGINE, hands=["9D 9S KD 10C QH", "3S 4C 6S 8S 10S"], goals=["7S 9H", "KC QC"],
                     rows={(0, 1): "9H 4C"}, centre=["AS 2S 3S"])
    assert plays(legal(table)) == [row_play(1, "4C", 0)]
    refused(table, 0, row_play(1, "9H", 0), "not_on_top")
    table, _ = play(ENGINE, table, 0, row_play(1, "4C", 0))
    assert table.rows[0][1] == ("9H",)


def test_7_hand_emptied_draws_five_and_the_turn_still_ends_with_a_discard():
    table = position(ENGINE, hands=["2S 3S 4S 5S 6S", "3C 4C 6C 8C"], goals=["KH 9H", "KC QC"],
                     centre=["AH"], stock="9D 10D JD QD 8H 7H")
    for card in ["2S", "3S", "4S", "5S"]:
        table, _ = play(ENGINE, table, 0, hand_play(card, 0))
    table, events = play(ENGINE, table, 0, hand_play("6S", 0))
    assert types(events) == ["play", "draw"] and events[1].data["reason"] == "empty_hand"
    assert table.hands[0] == ("9D", "10D", "JD", "QD", "8H") and table.turn.current == 0
    refused(table, 0, END_TURN, "must_discard")
    assert END_TURN not in legal(table)
    table, events = play(ENGINE, table, 0, discard("9D"))
    assert types(events) == ["discard", "draw"] and table.turn.current == 1
    assert table.hands[1] == ("3C", "4C", "6C", "8C", "7H")


def test_8_recycling_under_the_stock():
    completed = " ".join(card for card in french_deck() if card.endswith("S"))
    table = position(ENGINE, hands=["9D 10D", "QH"], goals=["KH 9H", "KC QC"], stock="8C 3D",
                     completed=completed, moved=True)
    table, events = play(ENGINE, table, 0, discard("9D"))
    assert types(events) == ["discard", "shuffle", "draw"]
    shuffle = events[1]
    assert shuffle.data["purpose"] == "recycle_under" and Counter(shuffle.data["cards"]) == Counter(completed.split())
    recycled = shuffle.data["cards"]
    assert events[2].data == {"seat": 1, "cards": ["8C", "3D", *recycled[:2]], "reason": "turn_start"}
    assert table.hands[1] == ("QH", "8C", "3D", *recycled[:2])
    assert table.stock == tuple(recycled[2:]) and len(table.stock) == 11 and table.completed == ()


def test_8_no_recycling_when_the_stock_covers_the_draw():
    completed = " ".join(card for card in french_deck() if card.endswith("S"))
    table = position(ENGINE, hands=["9D 10D", "QH"], goals=["KH 9H", "KC QC"], stock="8C 3D 4D 5D",
                     completed=completed, moved=True)
    table, events = play(ENGINE, table, 0, discard("9D"))
    assert types(events) == ["discard", "draw"] and table.stock == () and len(table.completed) == 13


def test_9_the_opponents_piles_are_off_limits():
    table = position(ENGINE, hands=["9D 9S KD 10C QH", "3S 4C 6S 8S 10S"], goals=["7S 9H", "KC QC"],
                     rows={(1, 0): "5H"}, centre=["AS 2S 3S 4S"])
    assert all(a.get("card") != "5H" for a in legal(table))
    refused(table, 0, row_play(0, "5H", 0), "not_on_top")


def test_10_win():
    table = position(ENGINE, hands=["9D 9S 8D 10C QH", "3S 4C 6S 8S 10S"], goals=["7S 9H 4H 5H", "KS"],
                     centre=["AH 2H 3H 4C 5C 6C 7C 8C 9C 10C JC QC"], current=1)
    after, events = play(ENGINE, table, 1, goal_play("KS", 0))
    assert types(events) == ["play", "game_over"]
    assert after.centre == () and len(after.completed) == 13
    result = ENGINE.result(after)
    assert result["winners"] == [1] and result["points"] == {"0": 0, "1": 4} and result["reason"] == "goal_emptied"


def test_11_blocked():
    table = position(ENGINE, hands=["9D 9S 8D 10C QH", "3S 4C 6S 8S 10S"], goals=["7S 9H 4H", "KS 7C 8C 9C 10C"],
                     stock="")
    table, events = play(ENGINE, table, 0, discard("9D"))
    assert types(events) == ["discard"] and events[0].data["dead_turns"] == 1
    table, events = play(ENGINE, table, 1, discard("3S"))
    assert types(events) == ["discard", "game_over"]
    result = ENGINE.result(table)
    assert result["reason"] == "blocked" and result["winners"] == [0] and result["points"] == {"0": 2, "1": 0}


# -- the rest ------------------------------------------------------------------------------------------


def test_setup_has_no_hands_and_a_54_card_stock():
    table, events = _start()
    assert [e.type for e in events].count("deal") == 0
    assert len(table.stock) + len(table.hands[table.turn.current]) == 54
    assert table.hands[1 - table.turn.current] == ()
    assert Counter(ENGINE.all_cards(table)) == Counter(french_deck() * 2 + ["JK", "JK"])


def test_empty_hand_that_cannot_be_refilled_may_end_the_turn():
    table = position(ENGINE, hands=["5S", "3C 4C 6C 8C 10C"], goals=["KH 9H", "KC QC"], centre=["AH 2H 3H 4H"],
                     stock="")
    table, events = play(ENGINE, table, 0, hand_play("5S", 0))
    assert types(events) == ["play"] and table.hands[0] == ()
    assert legal(table) == [END_TURN]
    table, events = play(ENGINE, table, 0, END_TURN)
    assert types(events) == ["end_turn"] and table.turn.current == 1


def test_start_of_turn_draw_fills_the_hand_to_five():
    table = position(ENGINE, hands=["5S 6S", "3C"], goals=["KH 9H", "KC QC"], stock="2D 3D 4D 5D 6D 7D")
    table, events = play(ENGINE, table, 0, discard("5S"))
    assert types(events) == ["discard", "draw"]
    assert table.hands == (("6S",), ("3C", "2D", "3D", "4D", "5D")) and table.stock == ("6D", "7D")


def test_a_match_deals_games_until_the_target():
    playout = random_playout(ENGINE, 2, {"target": 10, "max_turns": 150}, SEED, random.Random(5), with_view=False)
    result = playout.result
    assert max(result["scores"].values()) >= 10 and len(result["games"]) >= 2
    starts = [e for e in playout.events if e.type == "game_start"]
    assert [e.data["game"] for e in starts] == list(range(1, len(result["games"]) + 1))
    assert result["winners"] == [max((0, 1), key=lambda s: result["scores"][str(s)])]
