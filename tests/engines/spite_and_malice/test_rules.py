"""Spite and Malice: every conformance scenario of rules/spite-and-malice.md §13, plus set-up, matches,
limits and visibility."""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from functools import partial

import pytest

from games.engine.cards import FRENCH_VALUE, french_deck
from games.engine.chance import Chance
from games.engine.protocol import Event, InvalidOptions
from games.engine.runner import begin, fold, random_playout
from games.rules.patience.state import Turn
from games.rules.spite_and_malice import ENGINE
from tests.engines.spite_and_malice import positions
from tests.engines.spite_and_malice.positions import (
    SEED,
    all_discards,
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


# -- conformance scenarios (§13) ---------------------------------------------------------------------


def test_1_forced_ace_from_the_goal_pile_then_forced_two():
    table = position(ENGINE, hands=["5H 7D 9C KH JK", "3S 4S 6S 8S 10S"], goals=["AS 2D 9H", "KC QC"])
    assert legal(table) == [goal_play("AS", "new")]
    refused(table, 0, hand_play("JK", "new"), "must_play_ace")
    refused(table, 0, {"type": "discard", "card": "5H", "pile": 0}, "must_play_ace")
    table, events = play(ENGINE, table, 0, goal_play("AS", "new"))
    assert events[0].data["goal_top"] == "2D"
    pile = table.centre[0][0]
    assert legal(table) == [goal_play("2D", pile)]
    refused(table, 0, {"type": "discard", "card": "5H", "pile": 0}, "must_play_two")


def test_2_forced_ace_before_anything_else():
    table = position(ENGINE, hands=["AH 4S 4D 8C 9H", "3S 4C 6S 8S 10S"], goals=["3C 9S", "KC QC"],
                     centre=["AD 2S"])
    assert legal(table) == [hand_play("AH", "new")]
    refused(table, 0, goal_play("3C", 0), "must_play_ace")
    table, _ = play(ENGINE, table, 0, hand_play("AH", "new"))
    assert goal_play("3C", 0) in legal(table)
    table, _ = play(ENGINE, table, 0, goal_play("3C", 0))
    assert table.centre[0][1] == ("AD", "2S", "3C")


def test_3_forced_two_from_hand_with_two_targets():
    table = position(ENGINE, hands=["2C 6H 6S 9D QS", "3S 4C 6C 8S 10S"], goals=["8H 9S", "KC QC"],
                     centre=["AS", "JK"])
    assert same(legal(table), [hand_play("2C", 0), hand_play("2C", 1)])
    refused(table, 0, {"type": "discard", "card": "6H", "pile": 1}, "must_play_two")


def test_4_joker_is_never_a_two():
    table = position(ENGINE, hands=["JK 3S 5D 5C 10H", "3H 4C 6C 8S 10S"], goals=["9S 9D", "KC QC"],
                     centre=["AS"])
    actions = legal(table)
    assert same(actions, [hand_play("JK", "new"), *all_discards("JK 3S 5D 5C 10H")])
    assert len(actions) == 21
    refused(table, 0, hand_play("JK", 0), "invalid_play")
    refused(table, 0, END_TURN, "must_discard")


def test_5_mandatory_discard():
    table = position(ENGINE, hands=["6S 6D 8H 9C 10C", "3H 4C 6C 8S 10S"], goals=["QS 9D", "KC QC"],
                     centre=["AS 2S 3S"])
    actions = legal(table)
    assert same(actions, all_discards("6S 6D 8H 9C 10C")) and len(actions) == 20
    refused(table, 0, END_TURN, "must_discard")


def test_6_optional_discard_after_a_play():
    table = position(ENGINE, hands=["6S 6D 8H 9C 10C", "3H 4C 6C 8S 10S"], goals=["QS 9D", "KC QC"],
                     centre=["AS 2S 3S 4S 5S"])
    assert same(plays(legal(table)), [hand_play("6S", 0), hand_play("6D", 0)])
    refused(table, 0, END_TURN, "must_discard")
    table, _ = play(ENGINE, table, 0, hand_play("6S", 0))
    assert table.turn.moved
    assert same(legal(table), [*all_discards("6D 8H 9C 10C"), END_TURN])
    after_discard, events = play(ENGINE, table, 0, {"type": "discard", "card": "9C", "pile": 2})
    assert after_discard.rows[0][2] == ("9C",)
    assert ENGINE.to_act(after_discard) == frozenset({1})
    refused(after_discard, 0, {"type": "discard", "card": "8H", "pile": 1}, "not_your_turn")
    after_end, events = play(ENGINE, table, 0, END_TURN)
    assert types(events) == ["end_turn", "draw"] and events[1].data["cards"] == list(table.stock[:1])
    assert events[0].data == {"seat": 0, "dead_turns": 0} and after_end.turn == Turn(1, 2, False, 0)


def test_7_emptying_the_hand_draws_five_and_the_turn_goes_on():
    table = position(ENGINE, hands=["4H 5H 6H 7H 8H", "3C 4C 6C 8S 10S"], goals=["QS 9D", "KC QC"],
                     centre=["AS 2S 3S"], stock="9S 10D JS JD QH KS KD 3D")
    for card in ["4H", "5H", "6H", "7H"]:
        table, events = play(ENGINE, table, 0, hand_play(card, 0))
        assert types(events) == ["play"]
    table, events = play(ENGINE, table, 0, hand_play("8H", 0))
    assert types(events) == ["play", "draw"]
    assert events[1].data == {"seat": 0, "cards": ["9S", "10D", "JS", "JD", "QH"], "reason": "empty_hand"}
    assert table.hands[0] == ("9S", "10D", "JS", "JD", "QH")
    assert table.turn.current == 0 and table.turn.moved and table.turn.number == 1
    assert table.stock == ("KS", "KD", "3D")


def _recycle_table(stock: str):
    completed = " ".join(card for card in french_deck() if card[-1] in "SH")
    return position(ENGINE, hands=["9C 10C", "3C 4C 6C 8S 10S"], goals=["QS 9D", "KC QC"], stock=stock,
                    completed=completed, moved=True)


@pytest.mark.parametrize("version", [1, 2])
def test_8_reshuffle_threshold(version):
    """The scenario as written (rules version 1); version 2 differs only after the draw (test_rules_versions)."""
    engine = ENGINE.at_version(version)
    eleven = "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"
    table = _recycle_table(eleven)
    assert len(table.stock) == 11 and len(table.completed) == 26
    after, events = play(engine, table, 0, END_TURN)
    assert types(events) == ["end_turn", "shuffle", "draw"]
    shuffle = events[1]
    assert shuffle.data["purpose"] == "recycle" and len(shuffle.data["cards"]) == 37
    assert Counter(shuffle.data["cards"]) == Counter(table.stock + table.completed)
    assert shuffle.visible_to == frozenset() and "cards" not in shuffle.public
    assert events[2].data["cards"] == shuffle.data["cards"][:3]
    assert len(after.stock) == 34 and after.completed == () and len(after.hands[0]) == 5

    if version == 1:  # 12 left at the draw: no reshuffle, however short the stock is after it
        table = _recycle_table(eleven + " 2D")
        after, events = play(engine, table, 0, END_TURN)
        assert types(events) == ["end_turn", "draw"]
        assert len(after.stock) == 9 and len(after.completed) == 26


def test_8_recycle_order_can_be_fixed_with_decks():
    table = _recycle_table("3D 4D 5D 6D 7D 8D 9D 10D JD QD KD")
    order = list(reversed(table.stock + table.completed))
    after, events = play(ENGINE, table, 0, END_TURN, decks=[order])
    assert events[1].data["source"] == "decks" and after.hands[0][2:] == tuple(order[:3])


def test_9_win_mid_turn():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD 4D 5D 6D 7D 8D 9D 10D", "QC"],
                     centre=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS"], current=1)
    after, events = play(ENGINE, table, 1, goal_play("QC", 0))
    assert types(events) == ["play", "game_over"]
    result = ENGINE.result(after)
    assert result["winner"] == 1 and result["winners"] == [1]
    assert result["points"] == {"0": 0, "1": 9} and result["scores"] == {"0": 0, "1": 9}
    assert result["reason"] == "goal_emptied"
    assert ENGINE.to_act(after) == frozenset() and ENGINE.legal_actions(after, 1) == []


def test_10_blocked_game():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"],
                     goals=["KC QD 4D 5D", "QC JC 10C 9C 8C 7C 6C"], stock="")
    table, events = play(ENGINE, table, 0, {"type": "discard", "card": "3C", "pile": 0})
    assert types(events) == ["discard"]
    assert events[0].data == {"seat": 0, "card": "3C", "pile": 0, "dead_turns": 1}
    assert table.turn == Turn(1, 2, False, 1)
    assert ENGINE.result(table) is None
    table, events = play(ENGINE, table, 1, {"type": "discard", "card": "9H", "pile": 0})
    assert types(events) == ["discard", "game_over"]
    result = ENGINE.result(table)
    assert result["reason"] == "blocked" and result["winner"] == 0 and result["points"] == {"0": 3, "1": 0}


def test_10_a_play_breaks_the_run_of_dead_turns():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD 4D 5D", "QC JC 10C 9C 8C"],
                     centre=["AS 2S 3S 4S"], stock="", dead_turns=1, current=1)
    table, events = play(ENGINE, table, 1, hand_play("5H", 0))
    table, events = play(ENGINE, table, 1, {"type": "discard", "card": "9H", "pile": 0})
    assert types(events) == ["discard"] and events[0].data["dead_turns"] == 0
    table, events = play(ENGINE, table, 0, {"type": "discard", "card": "3C", "pile": 0})
    assert types(events) == ["discard"] and events[0].data["dead_turns"] == 1 and ENGINE.result(table) is None


def test_10_a_turn_with_cards_left_to_draw_is_not_dead():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD 4D 5D", "QC JC 10C 9C 8C"],
                     stock="", completed=" ".join(card for card in french_deck() if card.endswith("D")),
                     dead_turns=1, current=1)
    table, events = play(ENGINE, table, 1, {"type": "discard", "card": "9H", "pile": 0})
    assert events[0].data["dead_turns"] == 0 and types(events) == ["discard", "shuffle", "draw"]


def test_11_joker_from_a_discard_row_as_king():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD", "QC JC"],
                     rows={(0, 2): "9H JK"}, centre=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"])
    assert row_play(2, "JK", 0) in legal(table)
    after, events = play(ENGINE, table, 0, row_play(2, "JK", 0))
    assert events[0].data["completed"] is True
    assert after.centre == () and len(after.completed) == 13 and after.completed[-1] == "JK"
    assert after.rows[0][2] == ("9H",)


# -- set-up ----------------------------------------------------------------------------------------------


def _start(decks=(), options=None, seed=SEED):
    chance = Chance(seed, decks)
    position_, events = begin(ENGINE, 2, ENGINE.normalize_options(options or {}, 2), chance)
    return position_.state, events


def test_setup_deals_goal_piles_hands_and_a_46_card_stock():
    goal = goal_pack("KD", "5C")
    stock = french_deck(4)[::-1]
    table, events = _start([goal, stock])
    assert types(events)[:4] == ["setup", "game_start", "shuffle", "goal_tops"]
    assert events[3].data == {"tops": ["KD", "5C"], "first": 0}
    assert table.goals == (tuple(goal[:26]), tuple(goal[26:]))
    assert table.hands == (tuple(stock[:5]), tuple(stock[5:10]))
    assert len(table.stock) == 46 and table.stock == tuple(stock[10:])
    assert table.turn.current == 0 and table.turn.number == 1
    deals = [e for e in events if e.type == "deal"]
    assert [e.visible_to for e in deals] == [frozenset({0}), frozenset({1})]
    assert deals[0].public == {"seat": 0, "count": 5}


def test_setup_equal_tops_reshuffle_thegoal_pack():
    table, events = _start([goal_pack("7S", "7H")])
    assert types(events)[:6] == ["setup", "game_start", "shuffle", "goal_tops", "shuffle", "goal_tops"]
    assert events[3].data["first"] is None
    assert events[4].data["purpose"] == "goal" and events[4].data["source"] == "seed"
    tops = events[5].data["tops"]
    assert events[5].data["first"] == (0 if FRENCH_VALUE[tops[0]] > FRENCH_VALUE[tops[1]] else 1)
    assert table.goals[0][0] == tops[0]
    stock_shuffle = [e for e in events if e.type == "shuffle"][-1]
    assert stock_shuffle.data["purpose"] == "stock" and stock_shuffle.data["n"] == 2


def test_lower_goal_top_means_seat_one_starts():
    table, _ = _start([goal_pack("3S", "JH")])
    assert table.turn.current == 1 and ENGINE.to_act(table) == frozenset({1})


# -- matches, limits -----------------------------------------------------------------------------------


def test_match_worked_example_goes_on_with_a_new_game():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD 4D 5D 6D 7D 8D 9D 10D", "QC"],
                     centre=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS"], current=1, target=50, totals=(44, 38))
    after, events = play(ENGINE, table, 1, goal_play("QC", 0))
    over = events[1]
    assert over.type == "game_over" and over.data["totals"] == {"0": 44, "1": 47} and not over.data["match_over"]
    assert ENGINE.result(after) is None
    assert types(events)[2:5] == ["game_start", "shuffle", "goal_tops"]
    assert after.match.game == 2 and after.match.totals == (44, 47)
    assert len(after.goals[0]) == len(after.goals[1]) == 26 and len(after.stock) == 46
    assert after.centre == () and after.completed == ()
    assert Counter(ENGINE.all_cards(after)) == Counter(ENGINE.card_set(2, {}))
    view = ENGINE.view(after, 0)
    assert view["totals"] == {"0": 44, "1": 47} and view["game"] == 2
    assert view["games"] == [{"game": 1, "winner": 1, "reason": "goal_emptied", "points": {"0": 0, "1": 9}}]


def test_match_ends_when_the_target_is_reached():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD 4D 5D 6D 7D 8D 9D 10D", "QC"],
                     centre=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS"], current=1, target=50, totals=(44, 41))
    after, events = play(ENGINE, table, 1, goal_play("QC", 0))
    assert types(events) == ["play", "game_over"]
    result = ENGINE.result(after)
    assert result["winners"] == [1] and result["scores"] == {"0": 44, "1": 50}
    assert result["totals"] == {"0": 44, "1": 50} and result["points"] == {"0": 0, "1": 9}


def test_a_whole_match_of_random_games():
    playout = random_playout(ENGINE, 2, {"target": 12, "max_turns": 200}, SEED, random.Random(3), with_view=False)
    result = playout.result
    assert result is not None and max(result["scores"].values()) >= 12
    games = result["games"]
    assert len(games) >= 2 and [g["game"] for g in games] == list(range(1, len(games) + 1))
    assert sum(g["points"][str(s)] for g in result["games"] for s in (0, 1)) == sum(result["scores"].values())


def test_turn_limit_scores_like_a_blocked_game():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD 4D 5D", "QC JC 10C 9C 8C"],
                     max_turns=7, turn=7)
    after, events = play(ENGINE, table, 0, {"type": "discard", "card": "3C", "pile": 0})
    assert types(events) == ["discard", "game_over"]
    result = ENGINE.result(after)
    assert result["reason"] == "turn_limit" and result["winner"] == 0 and result["points"] == {"0": 1, "1": 0}


def test_equal_goal_piles_at_the_turn_limit_are_a_draw():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD", "QC JC"], max_turns=1)
    after, _ = play(ENGINE, table, 0, {"type": "discard", "card": "3C", "pile": 0})
    result = ENGINE.result(after)
    assert result["winners"] == [] and result["winner"] is None and result["scores"] == {"0": 0, "1": 0}


def test_options_are_checked():
    assert ENGINE.normalize_options({}, 2) == {"target": None, "max_turns": 1000}
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({"deals": 3}, 2)
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({"target": 0}, 2)
    with pytest.raises(InvalidOptions) as error:
        ENGINE.normalize_options({}, 3)
    assert error.value.code == "invalid_seats"


# -- refused actions and visibility ------------------------------------------------------------------


def test_refusals_name_the_problem():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD", "QC JC"],
                     rows={(0, 1): "7D 9D"}, centre=["AS 2S"])
    refused(table, 0, hand_play("5H", 0), "card_not_in_hand")
    refused(table, 0, hand_play("3C", 7), "no_such_pile")
    refused(table, 0, hand_play("4C", 0), "invalid_play")
    refused(table, 0, hand_play("3C", "new"), "invalid_play")
    refused(table, 0, goal_play("QD", 0), "not_goal_top")
    refused(table, 0, row_play(1, "7D", 0), "not_on_top")
    refused(table, 0, row_play(4, "9D", 0), "no_such_row")
    refused(table, 0, {"type": "play", "source": "discard", "card": "9D", "center": 0}, "invalid_action")
    refused(table, 0, {"type": "play", "source": "hand", "pile": 1, "card": "3C", "center": 0}, "invalid_action")
    refused(table, 0, {"type": "discard", "card": "3C", "pile": 4}, "no_such_row")
    refused(table, 0, {"type": "discard", "card": "ZZ", "pile": 0}, "card_not_in_hand")
    refused(table, 0, {"type": "play", "source": "hand", "card": "3C", "center": "x"}, "invalid_action")
    refused(table, 1, hand_play("5H", 0), "not_your_turn")


def test_views_show_own_hand_counts_and_public_zones_only():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD", "QC JC 4H"],
                     rows={(1, 0): "7D 9D"}, centre=["AS 2S"])
    mine = ENGINE.view(table, 0)
    assert mine["players"][0]["hand"] == ["3C", "4C", "6C", "8S", "10S"]
    assert mine["players"][1]["hand"] is None and mine["players"][1]["hand_count"] == 5
    assert mine["players"][1]["goal_top"] == "QC" and mine["players"][1]["goal_count"] == 3
    assert mine["players"][1]["discards"][0] == ["7D", "9D"]
    assert mine["centre"] == [{"id": 0, "value": 2, "cards": ["AS", "2S"]}]
    assert mine["stock_count"] == len(table.stock) and "stock" not in mine
    spectator = ENGINE.view(table, None)
    assert spectator["players"][0]["hand"] is None
    sampled = ENGINE.sample_state(mine, 0, random.Random(1))
    assert ENGINE.view(sampled, 0) == mine and sampled.hands[0] == table.hands[0]
    json.loads(json.dumps(mine))


def test_draws_are_hidden_from_the_opponent():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD", "QC JC"])
    _, events = play(ENGINE, table, 0, {"type": "discard", "card": "3C", "pile": 0})
    draw = events[1]
    assert draw.type == "draw" and draw.visible_to == frozenset({0})
    hidden = {"type": "draw", "actor": None, "data": {"seat": 0, "count": 1, "reason": "refill"}}
    assert ENGINE.redact(draw, 1) == hidden and ENGINE.redact(draw, None) == hidden
    assert ENGINE.redact(draw, 0)["data"]["cards"] == [table.stock[0]]


def test_a_stored_match_log_folds_back_to_the_same_table():
    playout = random_playout(ENGINE, 2, {"target": 8, "max_turns": 120}, SEED, random.Random(8), with_view=False)
    stored = [Event(e.type, json.loads(json.dumps(e.data)), e.public, e.visible_to, e.actor) for e in playout.events]
    assert fold(ENGINE, stored).state == playout.position.state
    assert len(playout.result["games"]) >= 2


def test_listed_actions_are_plain_json_and_shared_ones_cannot_be_changed():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD", "QC JC"],
                     centre=["AS 2S"], moved=True)
    actions = legal(table)
    assert json.loads(json.dumps(actions)) == actions
    shared = next(a for a in actions if a["type"] == "discard")
    with pytest.raises(TypeError):
        shared["pile"] = 3
    changed = dict(shared)
    changed["pile"] = 3
    assert legal(table) == actions and changed != shared
    after, _ = play(ENGINE, table, 0, pickle.loads(pickle.dumps(shared)))
    assert after.rows[0][shared["pile"]] == (shared["card"],)


def test_view_parts_shared_with_later_views_cannot_be_changed():
    table = position(ENGINE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD", "QC JC"],
                     centre=["AS 2S"], completed="AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", target=50,
                     totals=(3, 4))
    view = ENGINE.view(table, 0)
    pile = view["centre"][0]
    for shared in (view["centre"], pile, pile["cards"], view["completed"], view["totals"], view["games"]):
        with pytest.raises(TypeError):
            shared.clear()
    view["players"][0]["hand"].append("KS")  # the rest of a view is the caller's own
    view["turn"] = 99
    again = ENGINE.view(table, 0)
    assert again["centre"] == [{"id": 0, "value": 2, "cards": ["AS", "2S"]}] and again["totals"] == {"0": 3, "1": 4}
    assert again["players"][0]["hand"] == ["3C", "4C", "6C", "8S", "10S"] and again["turn"] == 1
    assert json.loads(json.dumps(again)) == again and pickle.loads(pickle.dumps(again)) == again
    assert copy.deepcopy(again) == again
