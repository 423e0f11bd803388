"""Machiavelli: every conformance scenario of rules/machiavelli.md §12, plus deal, match, visibility,
the sampled legal actions and the length of random games."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from games.engine.cards import card_tokens
from games.engine.chance import Chance
from games.engine.protocol import InvalidOptions
from games.engine.runner import begin, fold, random_playout
from games.rules.machiavelli import ENGINE
from games.rules.machiavelli.cards import DECK
from games.rules.machiavelli.melds import is_meld
from tests.engines.machiavelli.positions import (
    SEED,
    arrangement,
    cards,
    meld,
    melds,
    play,
    position,
    refused,
    table_of,
)

DRAW = {"type": "draw"}
PASS = {"type": "pass"}


def deck_dealing(hands: dict[int, str], dealer: int, seats: int) -> list[str]:
    """A `decks` entry that deals `hands` (13 cards each) with `dealer`, the other cards to the stock in
    canonical order."""
    order: list[str | None] = [None] * (13 * seats)
    for offset in range(seats):
        seat = (dealer + 1 + offset) % seats
        for round_, card in enumerate(cards(hands[seat])):
            order[round_ * seats + offset] = card
    rest = list(DECK)
    for card in order:
        rest.remove(card)
    return order + rest


def started(seats: int, decks: list[list[str]] = (), **options):
    opts = ENGINE.normalize_options(options, seats)
    chance = Chance(SEED, decks)
    table, events = begin(ENGINE, seats, opts, chance)
    return table, events, chance


# -- conformance scenarios (§12) ---------------------------------------------------------------------


def test_1_forced_first_draw_then_the_next_player_may_meld():
    hands = {
        0: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
        1: "7S 7H 7D 2H 3H 5H 6H 8H 9H 10H JH QH KH",
        2: "9S 9H 9D 2D 3D 5D 6D 8D 10D JD QD KD AD",
    }
    table, _, chance = started(3, [deck_dealing(hands, 0, 3)], first_dealer=0)
    state = table.state
    assert state.turn == 1 and state.opening
    assert ENGINE.legal_actions(state, 1) == [DRAW]  # even with the set 7S 7H 7D in hand
    refused(table, 1, meld("7S 7H 7D"), "must_draw")
    refused(table, 1, PASS, "stock_not_empty")
    table, events = play(table, 1, DRAW)
    assert [e.type for e in events] == ["draw"] and len(table.state.hands[1]) == 14
    assert table.state.turn == 2 and not table.state.opening
    assert arrangement("9S 9H 9D") in melds(table)
    table, _ = play(table, 2, meld("9D 9S 9H"))
    assert table_of(table) == [["9S", "9H", "9D"]] and len(table.state.hands[2]) == 10


def test_2_runs_with_aces():
    assert is_meld(cards("AH 2H 3H"))
    assert is_meld(cards("QH KH AH"))
    assert is_meld(cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"))
    assert is_meld(cards("KH AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH"))  # 13 cards, any order
    assert not is_meld(cards("KH AH 2H"))
    assert not is_meld(cards("AH 2H 4H"))
    assert not is_meld(cards("9H 10H JS"))
    assert not is_meld(cards("AH AH 2H"))


def test_2_the_fourteen_card_run_is_accepted_by_decide():
    run = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    table = position(["AH 5C", "9S 9D 9C"], [run], "4C 4D 4S", turn=0)
    table, _ = play(table, 0, meld(run + " AH"))
    assert table_of(table) == [cards(run + " AH")]


def test_3_sets():
    assert is_meld(cards("7H 7S 7D"))
    assert is_meld(cards("7H 7S 7D 7C"))
    assert not is_meld(cards("7H 7H 7S"))
    assert not is_meld(cards("7H 7S"))
    assert not is_meld(cards("7H 7S 7D 7C 7H"))


def test_4_rearrangement_splits_a_run_to_make_a_set():
    table = position(["6S 6D KC", "2C 3C 9D", "4S 5S 9C"], ["6H 7H 8H 9H"], "2D 3D 4D 5D", turn=0)
    assert arrangement("6H 6S 6D", "7H 8H 9H") in melds(table)  # the sample offers it
    table, events = play(table, 0, meld("6H 6S 6D", "7H 8H 9H"))
    assert [e.type for e in events] == ["meld"]
    assert events[0].data["added"] == ["6S", "6D"]
    assert table.state.hands[0] == ("KC",)  # keeps KC and does not draw
    assert len(table.state.stock) == 4 and table.state.turn == 1
    assert table_of(table) == [["6S", "6H", "6D"], ["7H", "8H", "9H"]]


STOCK_20 = "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2S 3S 4S 5S 6S 7S 8S"


def test_5_failed_operation_under_penalty_restores_the_table_and_draws_three():
    table = position(["8C 9D", "2H 3H", "4H 5H"], ["5C 6C 7C"], STOCK_20, turn=0)
    table, events = play(table, 0, meld("5C 6C 7C 8C 9D"))
    assert [e.type for e in events] == ["meld_failed", "draw"]
    assert table_of(table) == [["5C", "6C", "7C"]]
    assert table.state.hands[0] == ("2D", "3D", "4D", "9D", "8C")  # canonical order: suits S H D C
    assert len(table.state.stock) == 17 and table.state.turn == 1
    failed, draw = events
    assert failed.visible_to is None and failed.data == {"seat": 0, "drawn": 3}
    assert draw.visible_to == frozenset({0}) and draw.public == {"seat": 0, "count": 3, "reason": "penalty"}
    for viewer in (1, 2, None):
        for event in events:
            assert not card_tokens(ENGINE.redact(event, viewer), ENGINE.card_ids)
        assert not card_tokens(ENGINE.view(table.state, viewer)["hand"] or [], {"8C", "9D"})


def test_5_failed_operation_under_reject_is_refused_and_changes_nothing():
    table = position(["8C 9D", "2H 3H", "4H 5H"], ["5C 6C 7C"], STOCK_20, turn=0, failed_operation="reject")
    refused(table, 0, meld("5C 6C 7C 8C 9D"), "invalid_meld")
    table, _ = play(table, 0, meld("5C 6C 7C 8C"))  # the player may try again
    assert table_of(table) == [["5C", "6C", "7C", "8C"]]


@pytest.mark.parametrize("rule", ["penalty", "reject"])
def test_6_taking_a_table_card_is_never_allowed(rule):
    table = position(["9C 2D", "2H 3H", "4H 5H"], ["5C 6C 7C 8C"], STOCK_20, turn=0, failed_operation=rule)
    refused(table, 0, meld("5C 6C 7C"), "table_card_missing")
    refused(table, 0, meld("5C 6C 7C", "9C"), "table_card_missing")
    refused(table, 0, meld("6C 7C 8C 9C"), "table_card_missing")  # 5C would go back to the hand


def test_7_nothing_added():
    table = position(["2D 3H", "2H 3H", "4H 5H"], ["6H 7H 8H 9H", "9S 9D 9C"], STOCK_20, turn=0)
    refused(table, 0, meld("6H 7H 8H", "9H 9S 9D 9C"), "no_card_added")
    refused(table, 0, meld("6H 7H 8H 9H", "9S 9D 9C"), "no_card_added")


def test_8_closing_pays_one_unit_per_card():
    hands = ["JH QH", "2C 3C 4D 5D", "2S 3S 5S 6S 8S 9S JS 2D 4C 6C 8C"]
    table = position(hands, ["8H 9H 10H"], STOCK_20, turn=0, deals=1)
    table, events = play(table, 0, meld("8H 9H 10H JH QH"))
    assert [e.type for e in events] == ["meld", "deal_end"]
    end = events[1].data
    assert end["closer"] == 0 and end["blocked"] is False
    assert end["cards_left"] == {"0": 0, "1": 4, "2": 11}
    assert end["scores"] == {"0": 15, "1": -4, "2": -11}
    result = ENGINE.result(table.state)
    assert result["scores"] == {"0": 15, "1": -4, "2": -11} and result["winners"] == [0]
    assert result["deals"] == [{"deal": 1, "closer": 0, "blocked": False, "cards_left": end["cards_left"],
                                "scores": end["scores"]}]
    assert ENGINE.to_act(table.state) == frozenset()


def test_8_closing_in_a_match_deals_the_next_deal_to_the_left():
    table = position(["JH QH", "2C 3C 4D 5D", "2S 3S"], ["8H 9H 10H"], STOCK_20, turn=0, unit=2)
    dealer = table.state.dealer
    table, events = play(table, 0, meld("8H 9H 10H JH QH"))
    assert [e.type for e in events][:3] == ["meld", "deal_end", "deal_start"]
    assert events[1].data["scores"] == {"0": 12, "1": -8, "2": -4}
    state = table.state
    assert ENGINE.result(state) is None and state.deal_no == 2 and state.dealer == (dealer + 1) % 3
    assert state.turn == (dealer + 2) % 3 and state.opening and state.table == ()
    assert [len(hand) for hand in state.hands] == [13, 13, 13] and len(state.stock) == 104 - 39
    assert ENGINE.view(state, 1)["scores"] == {"0": 12, "1": -8, "2": -4}


def test_9_empty_stock_draw_is_illegal_pass_is_legal_and_a_round_of_passes_blocks():
    table = position(["2C 5D 9S", "2D 6S 10C", "3H 7C JD QS KD 4S 8D 10H"], ["6H 7H 8H"], "", turn=0, deals=1)
    assert ENGINE.legal_actions(table.state, 0)[0] == PASS
    assert DRAW not in ENGINE.legal_actions(table.state, 0)
    refused(table, 0, DRAW, "stock_empty")
    table, events = play(table, 0, PASS)
    table, events = play(table, 1, PASS)
    assert ENGINE.result(table.state) is None and table.state.passes == 2
    table, events = play(table, 2, PASS)
    assert [e.type for e in events] == ["pass", "deal_end"]
    end = events[1].data
    assert end["closer"] is None and end["blocked"] is True
    assert end["cards_left"] == {"0": 3, "1": 3, "2": 8}
    assert end["scores"] == {"0": 2.5, "1": 2.5, "2": -5}
    assert table.state.scores == (Fraction(5, 2), Fraction(5, 2), Fraction(-5))
    result = ENGINE.result(table.state)
    assert result["winners"] == [0, 1] and result["scores"] == {"0": 2.5, "1": 2.5, "2": -5}
    assert result["ranking"] == [{"seat": 0, "score": 2.5, "rank": 1}, {"seat": 1, "score": 2.5, "rank": 1},
                                 {"seat": 2, "score": -5, "rank": 3}]


def test_9_a_meld_breaks_the_round_of_passes():
    table = position(["2C 5D 9S", "2D 6S 9H", "3H 7C JD QS KD 4S 8D 10H"], ["6H 7H 8H"], "", turn=0, deals=1)
    table, _ = play(table, 0, PASS)
    table, _ = play(table, 1, meld("6H 7H 8H 9H"))
    assert table.state.passes == 0
    table, _ = play(table, 2, PASS)
    table, _ = play(table, 0, PASS)
    assert ENGINE.result(table.state) is None
    table, events = play(table, 1, PASS)
    assert events[-1].type == "deal_end" and events[-1].data["cards_left"] == {"0": 3, "1": 2, "2": 8}
    assert events[-1].data["scores"] == {"0": -1, "1": 7, "2": -6}


def test_10_penalty_with_a_short_stock_draws_what_is_left_then_turns_are_passes():
    table = position(["8C 9D", "2H 3H", "4H 5H"], ["5C 6C 7C"], "KS QS", turn=0, deals=1)
    table, events = play(table, 0, meld("5C 6C 7C 8C 9D"))
    assert events[0].data == {"seat": 0, "drawn": 2} and events[1].data["cards"] == ["KS", "QS"]
    assert table.state.stock == () and len(table.state.hands[0]) == 4
    assert ENGINE.legal_actions(table.state, 1)[0] == PASS
    refused(table, 1, DRAW, "stock_empty")
    table, _ = play(table, 1, PASS)
    # a failed operation on an empty stock draws nothing and counts as a pass
    table, events = play(table, 2, meld("5C 6C 7C 4H 5H"))
    assert [e.type for e in events] == ["meld_failed", "pass"]
    assert events[0].data == {"seat": 2, "drawn": 0} and table.state.passes == 2
    table, events = play(table, 0, PASS)
    assert events[-1].type == "deal_end" and events[-1].data["blocked"] is True


# -- deal, options, match ----------------------------------------------------------------------------


def test_the_deal_goes_one_card_at_a_time_from_the_dealers_left_and_the_rest_is_the_stock():
    order = list(DECK)
    random.Random(3).shuffle(order)
    table, events, _ = started(4, [order], first_dealer=2)
    state = table.state
    assert [e.type for e in events] == ["setup", "first_dealer", "deal_start", "shuffle"] + ["deal_hand"] * 4
    assert events[3].data["source"] == "decks" and events[3].visible_to == frozenset()
    for offset, seat in enumerate([3, 0, 1, 2]):
        assert sorted(state.hands[seat]) == sorted(order[offset : 52 : 4])
    assert state.stock == tuple(order[52:]) and state.turn == 3 and state.dealer == 2
    hand_events = events[4:]
    assert [e.data["seat"] for e in hand_events] == [3, 0, 1, 2]
    assert all(e.visible_to == frozenset({e.data["seat"]}) and e.public["count"] == 13 for e in hand_events)


def test_first_dealer_is_drawn_and_recorded_when_not_given():
    _, events, _ = started(5)
    assert events[1].type == "first_dealer" and events[1].visible_to is None
    assert events[1].data["source"] == "seed" and 0 <= events[1].data["seat"] < 5


def test_options_are_checked():
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({"failed_operation": "forgive"}, 3)
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({"jokers": 2}, 3)
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({}, 7)
    with pytest.raises(InvalidOptions):
        started(3, first_dealer=3)
    assert ENGINE.normalize_options({}, 2) == {"deals": 4, "unit": 1, "failed_operation": "penalty",
                                               "first_dealer": None}


def test_the_retired_turn_seconds_option_is_refused_with_a_pointer_to_the_platform_clock():
    with pytest.raises(InvalidOptions) as refused_option:
        ENGINE.normalize_options({"turn_seconds": 30}, 3)
    assert refused_option.value.code == "retired_option"
    assert "POST /games/ 'turn_seconds'" in refused_option.value.message
    with pytest.raises(InvalidOptions, match="removed"):
        ENGINE.normalize_options({"turn_seconds": None, "deals": 1}, 3)


def test_a_log_recorded_with_the_retired_option_still_folds_and_plays_to_its_end():
    """Games created while `turn_seconds` was an engine option carry it in their set-up event."""
    old = {**ENGINE.normalize_options({"deals": 1, "first_dealer": 0}, 3), "turn_seconds": 45}
    chance = Chance(SEED)
    table, events = begin(ENGINE, 3, old, chance)
    assert events[0].type == "setup" and events[0].data["options"]["turn_seconds"] == 45
    rng = random.Random(3)
    for _ in range(5000):
        if ENGINE.result(table.state) is not None:
            break
        seat = min(ENGINE.to_act(table.state))
        new_events = ENGINE.decide(table.state, seat, rng.choice(ENGINE.legal_actions(table.state, seat)), chance)
        table = fold(ENGINE, new_events, table)
        events += new_events
    assert ENGINE.result(table.state) is not None
    assert fold(ENGINE, events).state.match == table.state.match  # a replay from the log alone
    assert ENGINE.view(table.state, 0)["options"]["turn_seconds"] == 45


def test_a_match_of_four_deals_rotates_the_deal_and_sums_the_scores():
    playout = random_playout(ENGINE, 3, {"first_dealer": 1}, SEED, random.Random(5))
    ends = [e for e in playout.events if e.type == "deal_end"]
    starts = [e.data["dealer"] for e in playout.events if e.type == "deal_start"]
    assert len(ends) == 4 and starts == [1, 2, 0, 1]
    totals = {str(s): sum(Fraction(e.data["scores"][str(s)]).limit_denominator(60) for e in ends) for s in range(3)}
    assert playout.result["scores"] == {s: float(v) if v.denominator > 1 else int(v) for s, v in totals.items()}
    assert [d["deal"] for d in playout.result["deals"]] == [1, 2, 3, 4]
    assert sum(sum(e.data["scores"].values()) for e in ends) == pytest.approx(0)


def test_blocked_shares_stay_exact_across_deals():
    table = position(["2C", "2D", "3C", "9S 9D 9C 9H"], ["6H 7H 8H"], "", turn=0, deals=2)
    for seat in range(4):
        table, events = play(table, seat, PASS)
    assert events[1].data["scores"] == {"0": 1, "1": 1, "2": 1, "3": -3}
    # three winners sharing 10 units: 10/3 each, kept exact
    table = position(["2C", "2D", "3C", "9S 9D 9C 10H 10D"], ["6H 7H 8H"], "", turn=0, deals=1, unit=1)
    for seat in range(4):
        table, events = play(table, seat, PASS)
    assert table.state.scores[:3] == (Fraction(4, 3),) * 3
    assert ENGINE.result(table.state)["scores"]["0"] == pytest.approx(4 / 3)
    view = ENGINE.view(table.state, 0)
    assert ENGINE.sample_state(view, 0, random.Random(1)).scores == table.state.scores


def test_a_drawn_match_has_no_winner():
    table = position(["2C", "2D", "3C"], ["6H 7H 8H"], "", turn=0, deals=1)
    for seat in range(3):
        table, _ = play(table, seat, PASS)
    result = ENGINE.result(table.state)
    assert result["winners"] == [] and result["scores"] == {"0": 0, "1": 0, "2": 0}


# -- submissions -------------------------------------------------------------------------------------


def test_group_and_card_order_are_free_and_normalised():
    start = position(["4H 5H JC QC KC 10C", "2D", "3D"], ["6H 7H 8H", "9S 9D 9C"], STOCK_20, turn=0, deals=1)
    shuffled = {"type": "meld", "table": [["KC", "QC", "JC", "10C"], ["9C", "9S", "9D"], ["8H", "4H", "6H", "5H",
                                                                                       "7H"]]}
    table, events = play(start, 0, shuffled)
    assert events[0].data["table"] == [["10C", "JC", "QC", "KC"], ["4H", "5H", "6H", "7H", "8H"],
                                       ["9S", "9D", "9C"]]
    assert events[0].data["added"] == ["4H", "5H", "10C", "JC", "QC", "KC"]
    assert table.state.hands[0] == ()  # and the player closed
    assert events[1].type == "deal_end"


def test_malformed_submissions_are_refused_with_a_code():
    table = position(["8C 9D", "2H 3H", "4H 5H"], ["5C 6C 7C"], STOCK_20, turn=0)
    refused(table, 0, {"type": "meld", "table": [["5C", "6C", "7C", "ZZ"]]}, "unknown_card")
    refused(table, 0, {"type": "meld", "table": [["5C", "6C", "7C", "8C", "8C"]]}, "card_not_in_hand")
    refused(table, 0, {"type": "meld", "table": [["5C", "6C", "7C"], ["8H", "8S", "8D"]]}, "card_not_in_hand")
    refused(table, 0, {"type": "meld", "table": "5C"}, "invalid_action")
    refused(table, 0, {"type": "meld"}, "invalid_action")
    refused(table, 1, DRAW, "not_your_turn")
    state = table.state
    with pytest.raises(Exception) as caught:
        ENGINE.decide(state, 0, {"type": "meld", "table": [[["5C"]]]}, Chance(SEED))
    assert caught.value.code == "invalid_action"


def test_a_failed_operation_on_a_good_structure_with_a_bad_group_anywhere():
    table = position(["8C 9D 9H", "2H 3H", "4H 5H"], ["5C 6C 7C", "9S 9C 9D"], STOCK_20, turn=0)
    table, events = play(table, 0, meld("5C 6C 7C 8C", "9S 9C", "9D 9D 9H"))
    assert events[0].type == "meld_failed"
    assert table_of(table) == [["5C", "6C", "7C"], ["9S", "9D", "9C"]]


# -- visibility --------------------------------------------------------------------------------------


def test_views_show_the_own_hand_and_only_counts_of_the_others():
    table = position(["8C 9D", "2H 3H 4D", "4H 5H"], ["5C 6C 7C"], STOCK_20, turn=0)
    view = ENGINE.view(table.state, 1)
    assert view["hand"] == ["2H", "3H", "4D"] and view["hand_counts"] == [2, 3, 2]
    assert view["table"] == [["5C", "6C", "7C"]] and view["stock"] == 20 and view["turn"] == 0
    assert view["opening"] is False and view["options"]["failed_operation"] == "penalty"
    spectator = ENGINE.view(table.state, None)
    assert spectator["hand"] is None
    shown = set(card_tokens(spectator, ENGINE.card_ids))
    assert shown == {"5C", "6C", "7C"}
    json.dumps(view)


# -- the sample of legal melds -----------------------------------------------------------------------


def test_each_kind_of_sampled_meld():
    run = "5S 6S 7S 8S 9S 10S"
    # addition: QH extends 8H..JH; new set 7C 7D 7S? no: a new run from the hand 2H 3H 4H
    table = position(["QH 2H 3H 4H KC", "2D", "3D"], [run, "8H 9H 10H JH"], STOCK_20, turn=0)
    offered = melds(table)
    assert arrangement(run, "8H 9H 10H JH QH") in offered
    assert arrangement(run, "8H 9H 10H JH", "2H 3H 4H") in offered
    # the longest stretch of hand cards added at once
    table = position(["QH KH AH 2C", "2D", "3D"], [run, "8H 9H 10H JH"], STOCK_20, turn=0)
    assert arrangement(run, "8H 9H 10H JH QH KH AH") in melds(table)
    # a new set from the hand, and the fourth suit added to a set
    table = position(["4C 4D 4H 9C", "2D", "3D"], ["9S 9H 9D"], STOCK_20, turn=0)
    assert arrangement("9S 9H 9D", "4C 4D 4H") in melds(table)
    assert arrangement("9S 9H 9D 9C") in melds(table)
    # a duplicate card splits a long run
    table = position(["7S 2C", "2D", "3D"], [run], STOCK_20, turn=0)
    assert arrangement("5S 6S 7S", "7S 8S 9S 10S") in melds(table)
    # the fourth card of a set freed for a new run
    table = position(["8H 9H 2C", "2D", "3D"], ["7H 7S 7D 7C"], STOCK_20, turn=0)
    assert arrangement("7S 7D 7C", "7H 8H 9H") in melds(table)
    # a run end freed for a new set; a middle card freed from a run of seven
    table = position(["10D 10C 2C", "2D", "3D"], ["4S 5S 6S 7S 8S 9S 10S"], STOCK_20, turn=0)
    offered = melds(table)
    assert arrangement("4S 5S 6S 7S 8S 9S", "10S 10D 10C") in offered
    table = position(["7D 7C 2C", "2D", "3D"], ["4S 5S 6S 7S 8S 9S 10S"], STOCK_20, turn=0)
    assert arrangement("4S 5S 6S", "8S 9S 10S", "7S 7D 7C") in melds(table)


def test_the_sample_is_deterministic_valid_and_capped():
    for seed in range(8):
        playout = random_playout(ENGINE, 2 + seed % 5, {"deals": 1}, f"{seed:064x}", random.Random(seed),
                                 with_view=False)
        assert playout.result is not None
    table = position(["7C 7D 9S QH 2H 3H 4H 6S 8S 10S JS", "2D", "3D"],
                     ["5S 6S 7S 8S", "7H 7S 7D 7C", "8H 9H 10H JH", "5D 6D 7D 8D 9D 10D JD"], STOCK_20, turn=0)
    first = ENGINE.legal_actions(table.state, 0)
    assert first == ENGINE.legal_actions(table.state, 0)
    assert first[0] == DRAW and 1 < len(first) <= 15
    for action in first[1:]:
        after, events = play(table, 0, action)
        assert events[0].type == "meld"


# -- random games ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_random_games_end_and_stay_short(seats):
    per_deal = []
    for seed in range(6):
        playout = random_playout(ENGINE, seats, {}, f"{seed + 100:064x}", random.Random(seed), with_view=False)
        assert playout.result is not None and len(playout.result["deals"]) == 4
        per_deal.append(playout.steps / 4)
    assert max(per_deal) < 250, per_deal
