"""Muscio rules: every conformance scenario of rules/muscio.md §14, the worked examples of §10-§11, and the
visibility table of §12."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.engine.cards import card_tokens
from games.engine.chance import Chance
from games.engine.protocol import IllegalAction, InvalidOptions
from games.engine.runner import apply_action, begin, random_playout
from games.rules.muscio import ENGINE
from games.rules.muscio.state import CANONICAL

from .helpers import A, B, C, D, E, Table, cards, crafted_table, stacked_deck

SEED_HEX = "cd" * 32


def refused(table: Table, seat: int, action: dict) -> str:
    with pytest.raises(IllegalAction) as error:
        table.act(seat, action)
    return error.value.code


def scored(table: Table) -> dict:
    """The last hand's record."""
    return table.events("hand_scored")[-1].data


# -- deal (§3) -----------------------------------------------------------------------------------------
def test_deal_packets_blinde_before_dealer_then_turn_up():
    deck = list(CANONICAL)
    table = Table(4, dealer=2, decks=[deck])
    state = table.state
    assert state.hands[3] == tuple(deck[0:5])
    assert state.hands[0] == tuple(deck[5:10])
    assert state.hands[1] == tuple(deck[10:15])
    assert state.deal.blinde == tuple(deck[15:20])
    assert state.hands[2] == tuple(deck[20:25])
    assert state.deal.turnup == deck[25] and state.deal.trump == deck[25][1]
    assert sorted(state.deal.stock) == sorted(deck[26:])
    assert table.to_act() == {3}  # next(dealer) speaks first
    assert table.events("shuffle")[0].data["source"] == "decks"


def test_one_shuffle_per_hand_in_hand_order():
    first = stacked_deck(4, 2, {3: "AS 2C 3D 4H 5S", 0: "KS KC KD QS QC"}, turnup="7H")
    second = list(reversed(CANONICAL))
    table = Table(4, dealer=2, decks=[first, second])
    table.declare((3, "play"), (0, "play"), (1, "pass"), (2, "pass"))
    table.act(3, {"type": "forfeit"})
    shuffles = table.events("shuffle")
    assert [e.data["n"] for e in shuffles] == [0, 1] and shuffles[1].data["source"] == "decks"
    state = table.state
    assert state.deal.dealer == 3 and state.match.hand_no == 2
    assert state.hands[0] == tuple(second[0:5]) and state.deal.blinde == tuple(second[15:20])
    assert state.hands[3] == tuple(second[20:25]) and state.deal.turnup == second[25]


def test_six_players_use_36_cards():
    table = Table(6, dealer=0)
    state = table.state
    assert sum(map(len, state.hands)) == 30 and len(state.deal.blinde) == 5 and len(state.deal.stock) == 4


def test_first_dealer_is_drawn_with_the_rng_and_recorded():
    chance = Chance(SEED_HEX)
    position, events = begin(ENGINE, 5, ENGINE.normalize_options({}, 5), chance)
    opening = events[0]
    assert opening.type == "match_started" and opening.visible_to is None and opening.data["drawn"] is True
    assert opening.data["dealer"] == Chance(SEED_HEX).randbelow(5, "first_dealer")
    assert position.state.deal.dealer == opening.data["dealer"]


def test_first_dealer_must_be_a_seat():
    with pytest.raises(InvalidOptions):
        ENGINE.start(3, {"first_dealer": 4}, Chance(SEED_HEX))
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({"first_dealer": 6}, 6)
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({"rounds": 2}, 4)


# -- scenario 1: forced participation (MU-3) -----------------------------------------------------------
def test_scenario_1_forced_participation():
    table = Table(4, dealer=0)
    assert {"type": "pass"} in table.legal(1)
    table.declare((1, "pass"))
    assert {"type": "pass"} in table.legal(2)  # 0 playing + 2 still to speak
    table.declare((2, "pass"))
    assert {"type": "pass"} not in table.legal(3)  # 0 playing + 1 still to speak < 2
    assert refused(table, 3, {"type": "pass"}) == "must_play"
    table.declare((3, "play"))
    assert {"type": "pass"} not in table.legal(0)  # 1 + 0 < 2
    assert refused(table, 0, {"type": "pass"}) == "must_play"
    table.declare((0, "play"))
    assert table.state.deal.participants == (3, 0)


def test_pass_is_allowed_when_two_already_play():
    table = Table(3, dealer=0)
    table.declare((1, "play"), (2, "play"))
    assert {"type": "pass"} in table.legal(0)


# -- scenario 2: blinde (MU-4) -------------------------------------------------------------------------
def test_scenario_2_blinde_swaps_the_hand_and_excludes_the_forfeit():
    deck = stacked_deck(4, 0, {1: "AS 2C 3D 4H 5S", 0: "KS KC KD QS QC"}, turnup="7H", blinde="JS JC JD 6S 6C")
    table = Table(4, dealer=0, decks=[deck])
    table.declare((1, "play_blinde"))
    state = table.state
    assert state.hands[1] == tuple(cards("JS JC JD 6S 6C"))
    assert state.deal.dead[1] == tuple(cards("AS 2C 3D 4H 5S"))
    assert state.deal.blinde == ()
    assert {"type": "play_blinde"} not in table.legal(2)
    assert refused(table, 2, {"type": "play_blinde"}) == "blinde_taken"
    table.declare((2, "pass"), (3, "pass"), (0, "play"))
    table.act(0, {"type": "no_exchange"})
    # Two participants: only the dealer is asked about a forfeit, never the blinde taker.
    assert table.state.deal.forfeit_order == (0,)
    assert table.to_act() == {0}
    assert table.legal(1) == []
    table.act(0, {"type": "no_forfeit"})
    assert table.state.phase == "play" and table.to_act() == {1}  # seat 1 leads (MU-8)


def test_blinde_is_hidden_and_the_taker_sees_only_it():
    deck = stacked_deck(4, 0, {1: "AS 2C 3D 4H 5S"}, turnup="7H", blinde="JS JC JD 6S 6C")
    table = Table(4, dealer=0, decks=[deck])
    for viewer in (None, 0, 2, 3):
        assert not set(card_tokens(table.view(viewer), ENGINE.card_ids)) & set(cards("JS JC JD 6S 6C"))
    table.declare((1, "play_blinde"))
    taken = table.events("blinde_taken")[-1]
    assert taken.visible_to == frozenset({1})
    for viewer in (None, 0, 2, 3):
        shown = ENGINE.redact(taken, viewer)
        assert not card_tokens(shown, ENGINE.card_ids)
        view_cards = set(card_tokens(table.view(viewer), ENGINE.card_ids))
        assert not view_cards & set(cards("JS JC JD 6S 6C AS 2C 3D 4H 5S"))
    mine = table.view(1)
    assert mine["my_hand"] == cards("JS JC JD 6S 6C")
    assert mine["my_out_of_play"] == cards("AS 2C 3D 4H 5S")


# -- scenario 3: the dealer's exchange and the gatta values --------------------------------------------
# The rules file's scenario names the turn-up `9H`, a card Muscio's 40-card pack does not have; `7H` is used.
def test_scenario_3_exchange_makes_a_ten_point_trump_gatta():
    deck = stacked_deck(3, 0, {0: "JH QH KH 2S AH", 1: "AS 2C 3D 4S 5C", 2: "KS 3C 4D 5S 6C"}, turnup="7H")
    table = Table(3, dealer=0, decks=[deck])
    table.declare((1, "play"), (2, "play"), (0, "play"))
    assert {"type": "exchange", "card": "2S"} in table.legal(0)
    assert {"type": "no_exchange"} in table.legal(0)
    table.act(0, {"type": "exchange", "card": "2S"})
    gatta = table.events("gatta")[-1].data["holders"]
    assert gatta == [{"seat": 0, "cards": cards("JH QH KH AH 7H"), "suit": "H", "value": 10}]
    assert scored(table)["deltas"] == {"0": -10, "1": 10, "2": 10}


@pytest.mark.parametrize("choice", [{"type": "exchange", "card": "2H"}, {"type": "no_exchange"}])
def test_scenario_3_dealt_five_trumps_is_the_fifteen_point_gatta(choice):
    deck = stacked_deck(3, 0, {0: "2H 3H JH KH AH", 1: "AS 2C 3D 4S 5C", 2: "KS 3C 4D 5S 6C"}, turnup="7H")
    table = Table(3, dealer=0, decks=[deck])
    table.declare((1, "play"), (2, "pass"), (0, "play"))
    table.act(0, choice)
    assert table.events("gatta")[-1].data["holders"][0]["value"] == 15
    assert scored(table)["deltas"] == {"0": -15, "1": 15, "2": 10}


def test_exchange_visibility():
    deck = stacked_deck(3, 0, {0: "JH QH 2C 2S 3D", 1: "AS 2D 3C 4S 5C", 2: "KS 3S 4D 5S 6C"}, turnup="7H")
    table = Table(3, dealer=0, decks=[deck])
    table.declare((1, "play"), (2, "play"), (0, "play"))
    assert refused(table, 0, {"type": "exchange", "card": "AS"}) == "card_not_in_hand"
    assert refused(table, 0, {"type": "exchange", "card": "ZZ"}) == "card_not_in_hand"
    table.act(0, {"type": "exchange", "card": "2S"})
    given = table.events("exchanged")[-1]
    assert given.visible_to == frozenset({0}) and given.data["card"] == "2S"
    for viewer in (None, 1, 2):
        assert not card_tokens(ENGINE.redact(given, viewer), ENGINE.card_ids)
        seen = table.view(viewer)
        assert seen["turn_up"] == "7H" and seen["turn_up_taken"] is True and seen["exchanged"] is True
        assert "2S" not in card_tokens(seen, ENGINE.card_ids)
        sampled = ENGINE.sample_state(seen, viewer, random.Random(1))
        assert "7H" in sampled.hands[0] and ENGINE.view(sampled, viewer) == seen
    assert table.view(0)["my_out_of_play"] == ["2S"]
    assert "7H" in table.view(0)["my_hand"]


# -- scenario 4: no exchange after the blinde ----------------------------------------------------------
def test_scenario_4_dealer_with_the_blinde_has_no_exchange():
    table = Table(3, dealer=0)
    table.declare((1, "play"), (2, "pass"), (0, "play_blinde"))
    assert table.state.phase in ("forfeit", "play")
    assert not [a for a in table.legal(0) if a["type"] in ("exchange", "no_exchange")]
    assert not table.events("exchanged") and not table.events("no_exchange")
    assert table.state.deal.exchanged is None


def test_dealer_who_passed_has_no_exchange():
    table = Table(3, dealer=0)
    table.declare((1, "play"), (2, "play"), (0, "pass"))
    assert table.state.phase == "forfeit" and table.to_act() == {1}
    assert table.state.deal.exchanged is None and not table.events("no_exchange")


def test_dealer_trump_gatta_with_the_blinde_is_worth_ten():
    deck = stacked_deck(3, 0, {0: "2H 3H JH KH AH", 1: "AS 2C 3D 4S 5C"}, turnup="7H", blinde="6H 5H 4H QH 2S")
    table = Table(3, dealer=0, decks=[deck])
    table.declare((1, "play"), (2, "pass"), (0, "play_blinde"))
    assert not table.events("gatta")  # the blinde is not a flush, the dealt trump hand is dead
    deck = stacked_deck(3, 0, {1: "AS 2C 3D 4S 5C"}, turnup="7H", blinde="6H 5H 4H QH 2H")
    table = Table(3, dealer=0, decks=[deck])
    table.declare((1, "play"), (2, "pass"), (0, "play_blinde"))
    assert table.events("gatta")[-1].data["holders"][0]["value"] == 10


# -- scenario 5: two participants, tricks 1-2 lead -----------------------------------------------------
def two_handed(leader_hand: str, dealer_hand: str, turnup: str = "4H") -> Table:
    """3 players, dealer 0; seat 1 plays, seat 2 passes, the dealer plays; nobody forfeits."""
    deck = stacked_deck(3, 0, {1: leader_hand, 0: dealer_hand}, turnup=turnup)
    table = Table(3, dealer=0, decks=[deck])
    table.declare((1, "play"), (2, "pass"), (0, "play"))
    table.act(0, {"type": "no_exchange"})
    assert table.state.deal.forfeit_order == (1, 0)
    table.act(1, {"type": "no_forfeit"})
    table.act(0, {"type": "no_forfeit"})
    return table


def test_scenario_5_two_participants_lead_the_highest_of_a_suit():
    table = two_handed("AS 7S 3S QD 2C", "2D 3D 4S 5S 6C")
    assert table.legal_cards(1) == {"AS", "QD", "2C"}
    assert refused(table, 1, {"type": "play", "card": "7S"}) == "must_lead_highest"
    table.play(1, "AS")
    assert table.legal_cards(0) == {"4S", "5S"}
    table.play(0, "4S")
    assert table.legal_cards(1) == {"7S", "QD", "2C"}  # trick 2: still the highest of each suit
    table.play(1, "QD")
    table.play(0, "2D")
    assert table.state.won[1] == 2 and table.to_act() == {1}
    assert table.legal_cards(1) == {"7S", "3S", "2C"}  # trick 3: any card


# -- scenario 6: following with two participants --------------------------------------------------------
@pytest.mark.parametrize(
    ("follower", "legal", "wrong", "code"),
    [
        ("2D 5S 7H", {"2D"}, "7H", "must_follow_suit"),
        ("5S 7H", {"7H"}, "5S", "must_trump"),
        ("5S 6C", {"5S", "6C"}, None, None),
    ],
)
def test_scenario_6_follow_then_trump(follower, legal, wrong, code):
    # Crafted position (the follower's duty is the same in all five tricks, §9.1): seat 1 leads KD, the
    # dealer (seat 0) holds exactly `follower`, hearts are trumps.
    table = crafted_table(3, 0, {1: "KD 2S 3S", 0: follower, 2: "AC AD AH"}, turnup="JH",
                          declarations={1: "play", 2: "pass", 0: "play"}, leader=1)
    table.play(1, "KD")
    assert table.to_act() == {0}
    assert table.legal_cards(0) == legal
    if wrong:
        assert refused(table, 0, {"type": "play", "card": wrong}) == code


# -- scenario 7: compulsory trumps with three or more participants --------------------------------------
def three_handed(hands: dict[int, str], turnup: str = "2H") -> Table:
    deck = stacked_deck(3, 0, hands, turnup=turnup)
    table = Table(3, dealer=0, decks=[deck])
    table.declare((1, "play"), (2, "play"), (0, "play"))
    table.act(0, {"type": "no_exchange"})
    assert table.state.phase == "play" and table.to_act() == {1}
    return table


def test_scenario_7_trumps_are_compulsory_and_the_trumpless_play_face_down():
    table = three_handed({1: "3H QS KD 4C 5C", 2: "JS JD 6C 7C 4D", 0: "AH 5D 6S 7S 4S"})
    assert table.legal_cards(1) == {"3H"}
    assert refused(table, 1, {"type": "play", "card": "QS"}) == "must_trump"
    table.play(1, "3H")
    assert table.legal_cards(2) == set(cards("JS JD 6C 7C 4D"))  # no trump: any card, face down
    table.play(2, "JS")
    down = table.events("played")[-1]
    assert down.data == {"seat": 2, "card": "JS", "face_down": True} and down.visible_to == frozenset({2})
    for viewer in (None, 0, 1):
        assert not card_tokens(ENGINE.redact(down, viewer), ENGINE.card_ids)
        assert table.view(viewer)["trick"] == [[1, "3H", False], [2, None, True]]
    assert table.view(2)["trick"] == [[1, "3H", False], [2, "JS", True]]
    assert table.legal_cards(0) == {"AH"}
    table.play(0, "AH")
    assert table.events("trick_won")[-1].data["winner"] == 0
    assert table.view(1)["tricks"] == [{"plays": [[1, "3H", False], [2, None, True], [0, "AH", False]], "winner": 0}]


def test_scenario_7_nobody_holds_a_trump_so_the_leader_wins():
    table = three_handed({1: "3S QS KD 4C 5C", 2: "JS JD 6C 7C 4D", 0: "AS 5D 6S 7S 4S"})
    table.play(1, "3S")
    table.play(2, "JD")
    table.play(0, "AS")  # the ace of spades, face down, cannot win
    assert table.events("trick_won")[-1].data["winner"] == 1
    table.play(1, "KD")
    table.play(2, "4D")
    table.play(0, "5D")
    assert [e.data["winner"] for e in table.events("trick_won")] == [1, 1]
    assert table.state.won[1] == 2
    # Trick 3: normal play again; the leader's card is face up.
    table.play(1, "4C")
    assert table.events("played")[-1].visible_to is None
    assert table.legal_cards(2) == {"6C", "7C"}


def test_face_down_cards_stay_hidden_after_the_trick():
    table = three_handed({1: "3H QS KD 4C 5C", 2: "JS JD 6C 7C 4D", 0: "AH 5D 6S 7S 4S"})
    table.play(1, "3H")
    table.play(2, "JS")
    table.play(0, "AH")
    for viewer in (None, 0, 1):
        assert "JS" not in card_tokens(table.view(viewer), ENGINE.card_ids)
        sampled = ENGINE.sample_state(table.view(viewer), viewer, random.Random(3))
        assert ENGINE.view(sampled, viewer) == table.view(viewer)
    assert "JS" in card_tokens(table.view(2), ENGINE.card_ids)


# -- scenario 8 and the §10 example: score of a played hand ---------------------------------------------
def test_scenario_8_score_of_a_played_hand():
    deck = stacked_deck(5, A, {B: "AH KH 2S 3S 4S", A: "2C 3C 4C 5C 6D"}, turnup="6H", blinde="QH JH AS KS QS")
    table = Table(5, dealer=A, decks=[deck])
    table.declare((B, "play"), (C, "pass"), (D, "play_blinde"), (E, "pass"), (A, "play"))
    table.act(A, {"type": "no_exchange"})
    assert table.state.deal.participants == (B, D, A) and table.to_act() == {B}
    for seat, card in [(B, "AH"), (D, "QH"), (A, "2C"), (B, "KH"), (D, "JH"), (A, "3C"), (B, "2S"), (D, "AS"),
                       (A, "4C"), (D, "KS"), (A, "5C"), (B, "3S"), (D, "QS"), (A, "6D"), (B, "4S")]:
        table.play(seat, card)
    record = scored(table)
    assert record["kind"] == "played"
    assert record["tricks"] == {"1": 2, "3": 3, "0": 0}
    assert record["deltas"] == {"0": 5, "1": -2, "2": 0, "3": -3, "4": 0}
    assert record["scores"] == {"0": 35, "1": 28, "2": 30, "3": 27, "4": 30}
    assert record["participants"] == [B, D, A] and record["blinde"] == D
    assert table.view(C)["scores"] == [35, 28, 30, 27, 30]
    assert table.state.deal.dealer == B and table.state.match.hand_no == 2  # the deal passes to the left


# -- gatta examples (§10) and scenario 9 ---------------------------------------------------------------
def test_gatta_example_dealers_trump_gatta_and_a_passer():
    deck = stacked_deck(5, A, {A: "2H 3H 4H 5H 6H"}, turnup="7H")
    table = Table(5, dealer=A, decks=[deck])
    table.declare((B, "pass"), (C, "play"), (D, "play"), (E, "play"), (A, "play"))
    table.act(A, {"type": "no_exchange"})
    gatta = table.events("gatta")[-1]
    assert gatta.visible_to is None and gatta.data["holders"][0]["cards"] == cards("2H 3H 4H 5H 6H")
    assert scored(table)["deltas"] == {"0": -15, "1": 10, "2": 15, "3": 15, "4": 15}
    assert scored(table)["gatta"] == {"0": {"suit": "H", "value": 15}}


def test_gatta_example_two_gatte():
    deck = stacked_deck(5, A, {C: "2S 3S 4S 5S 6S", D: "2H 3H 4H 5H 6H"}, turnup="7H")
    table = Table(5, dealer=A, decks=[deck])
    table.declare((B, "pass"), (C, "play"), (D, "play"), (E, "pass"), (A, "play"))
    table.act(A, {"type": "no_exchange"})
    assert [(h["seat"], h["value"]) for h in table.events("gatta")[-1].data["holders"]] == [(C, 5), (D, 10)]
    assert scored(table)["deltas"] == {"0": 10, "1": 5, "2": -5, "3": -10, "4": 5}


def test_scenario_9_gatta_and_passers():
    deck = stacked_deck(3, 0, {2: "2S 3S 4S 5S 6S", 0: "AC KD QH 2D 3C"}, turnup="7H")
    table = Table(3, dealer=0, decks=[deck])
    table.declare((1, "pass"), (2, "play"), (0, "play"))
    table.act(0, {"type": "no_exchange"})
    assert scored(table)["deltas"] == {"0": 5, "1": 0, "2": -5}
    assert scored(table)["kind"] == "gatta"


def test_a_passer_holds_no_gatta():
    deck = stacked_deck(3, 0, {1: "2C 3C 4C 5C 6C"}, turnup="7H")
    table = Table(3, dealer=0, decks=[deck])
    table.declare((1, "pass"), (2, "play"), (0, "play"))
    table.act(0, {"type": "no_exchange"})
    assert not table.events("gatta") and table.state.phase == "forfeit"


# -- forfeit (§8) --------------------------------------------------------------------------------------
def test_forfeit_example_and_dealer_rotation():
    table = Table(5, dealer=A)
    table.declare((B, "play"), (C, "pass"), (D, "play"), (E, "pass"), (A, "pass"))
    assert table.state.phase == "forfeit" and table.state.deal.forfeit_order == (B, D)
    assert table.legal(B) == [{"type": "forfeit"}, {"type": "no_forfeit"}]
    table.act(B, {"type": "forfeit"})
    record = scored(table)
    assert record["kind"] == "forfeit" and record["forfeit"] == B
    assert record["deltas"] == {"0": 0, "1": 0, "2": 0, "3": -5, "4": 0}
    assert record["tricks"] == {"1": 0, "3": 5}
    assert table.state.deal.dealer == B and table.to_act() == {C}
    assert table.events("hand_started")[-1].data == {"hand": 2, "dealer": B}


def test_second_participant_may_forfeit_after_the_leader_declines():
    deck = stacked_deck(4, 0, {2: "AS 2C 3D 4H 5S", 0: "KS KC KD QS QC"}, turnup="7H")
    table = Table(4, dealer=0, decks=[deck])
    table.declare((1, "pass"), (2, "play"), (3, "pass"), (0, "play"))
    table.act(0, {"type": "no_exchange"})
    assert table.state.deal.forfeit_order == (2, 0)
    table.act(2, {"type": "no_forfeit"})
    assert table.to_act() == {0}
    table.act(0, {"type": "forfeit"})
    assert scored(table)["deltas"] == {"0": 0, "1": 0, "2": -5, "3": 0}


def test_no_forfeit_question_with_three_participants():
    table = Table(4, dealer=0)
    table.declare((1, "play"), (2, "play"), (3, "play"), (0, "pass"))
    assert table.state.phase == "play" and table.state.deal.forfeit_order == ()
    assert refused(table, 1, {"type": "forfeit"}) == "wrong_phase"


# -- scenario 10: end of the match ---------------------------------------------------------------------
def test_scenario_10_end_of_match_and_shared_win():
    deck = stacked_deck(4, D, {A: "AH KH QH 2S 3S", B: "4C 5C 6C 7C 4D", C: "7H 6H AS KS 5D"}, turnup="2H")
    table = Table(4, dealer=D, decks=[deck], scores=[3, 10, 1, 14])
    table.declare((A, "play"), (B, "play"), (C, "play"), (D, "pass"))
    for seat, card in [(A, "AH"), (B, "4C"), (C, "7H"), (A, "KH"), (B, "5C"), (C, "6H"), (A, "QH"), (B, "6C"),
                       (C, "5D"), (A, "2S"), (B, "7C"), (C, "AS"), (C, "KS"), (A, "3S"), (B, "4D")]:
        table.play(seat, card)
    assert scored(table)["tricks"] == {"0": 3, "1": 0, "2": 2}
    result = ENGINE.result(table.state)
    assert result["winners"] == [A, C]
    assert result["scores"] == {"0": 0, "1": 15, "2": -1, "3": 14}
    assert result["payout"] == 14.5 and result["payout_fraction"] == "29/2"
    assert result["reason"] == "score_reached_zero"
    assert result["ranking"] == [C, A, D, B]
    assert table.to_act() == set() and table.legal(A) == []
    assert refused(table, A, {"type": "play"}) == "game_finished"


def test_max_hands_cap_ends_the_match_with_the_lowest_scores_winning():
    table = Table(3, dealer=0, options={"max_hands": 1})
    rng = random.Random(5)
    while ENGINE.result(table.state) is None:
        (seat,) = table.to_act()
        table.act(seat, rng.choice(table.legal(seat)))
    result = ENGINE.result(table.state)
    scores = result["scores"]  # one hand moves a score by at most 15: nobody reaches zero from 30
    assert result["reason"] == "max_hands" and result["hands"] == 1 and result["payout"] is None
    assert result["winners"] == [int(s) for s, v in scores.items() if v == min(scores.values())]
    assert len(table.events("hand_started")) == 1


# -- actions refused -----------------------------------------------------------------------------------
def test_refusals_have_stable_codes():
    table = Table(4, dealer=0)
    assert refused(table, 2, {"type": "play"}) == "not_your_turn"
    assert refused(table, 1, {"type": "exchange", "card": "AS"}) == "wrong_phase"
    assert refused(table, 1, {"type": "play", "card": "AS"}) == "invalid_action"
    assert refused(table, 1, {"type": "no_forfeit"}) == "wrong_phase"
    table.declare((1, "play"), (2, "play"), (3, "play"), (0, "pass"))
    assert table.state.phase == "play"
    assert refused(table, 1, {"type": "play"}) == "invalid_action"
    assert refused(table, 1, {"type": "play", "card": "ZZ"}) == "card_not_in_hand"
    other = table.state.hands[2][0]
    error = None
    try:
        table.act(1, {"type": "play", "card": other})
    except IllegalAction as refusal:
        error = refusal
    assert error is not None and error.code == "card_not_in_hand" and other not in error.message


# -- visibility (§12) ----------------------------------------------------------------------------------
def test_views_show_only_the_viewers_cards_and_the_turn_up():
    table = Table(5, dealer=2)
    state = table.state
    for viewer in range(5):
        assert set(card_tokens(table.view(viewer), ENGINE.card_ids)) == set(state.hands[viewer]) | {
            state.deal.turnup}
    assert set(card_tokens(table.view(None), ENGINE.card_ids)) == {state.deal.turnup}
    for event in table.log:
        if event.visible_to is not None:
            for viewer in [None, *range(5)]:
                if viewer is None or viewer not in event.visible_to:
                    assert not card_tokens(ENGINE.redact(event, viewer), ENGINE.card_ids)


def test_passed_hand_stays_hidden_from_the_others():
    table = Table(3, dealer=0)
    passed = table.state.hands[1]
    table.declare((1, "pass"))
    assert table.view(1)["my_out_of_play"] == list(passed)
    for viewer in (None, 0, 2):
        assert not set(card_tokens(table.view(viewer), ENGINE.card_ids)) & set(passed)
        assert table.view(viewer)["out_of_play_counts"] == [0, 5, 0]


# -- whole matches -------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_random_matches_end_and_conserve_cards(seats):
    for seed in range(3):
        playout = random_playout(ENGINE, seats, {}, f"{seed:064x}", random.Random(seed), with_view=True)
        assert playout.result is not None
        assert Counter(ENGINE.all_cards(playout.position.state)) == Counter(CANONICAL)
        assert playout.result["reason"] in ("score_reached_zero", "max_hands")
        hands = [e for e in playout.events if e.type == "hand_started"]
        assert [e.data["dealer"] for e in hands] == [(hands[0].data["dealer"] + k) % seats for k in range(len(hands))]


# -- shared values and memos ---------------------------------------------------------------------------
def test_the_undealt_stock_when_the_deck_is_not_in_dealing_order():
    # The crafted deck holds the hands and the turn-up first, then the blinde: every dealt card is looked for.
    table = crafted_table(3, 0, {1: "AS 2S 3S 4S 5S", 2: "AH 2H 3H 4H 5H", 0: "AD 2D 3D 4D 5D"}, turnup="JC",
                          declarations={1: "play", 2: "play", 0: "play"}, leader=1)
    dealt = {*table.state.deal.blinde, "JC"} | {card for hand in table.state.hands for card in hand}
    shuffled = table.events("shuffle")[0].data["cards"]
    assert table.state.deal.stock == tuple(card for card in shuffled if card not in dealt)
    assert len(table.state.deal.stock) == 40 - 21


def test_shared_actions_events_and_view_parts_are_plain_json_and_read_only():
    table = Table(4, dealer=0)
    table.declare((1, "play"), (2, "play"), (3, "play"), (0, "pass"))
    actions = table.legal(1)
    table.play(1, actions[0]["card"])
    view = table.view(2)
    for value in (actions, view, [event.data for event in table.log]):
        assert json.loads(json.dumps(value)) == value
    with pytest.raises(TypeError):
        actions[0]["card"] = "AS"
    with pytest.raises(TypeError):
        view["declarations"].append("pass")
    with pytest.raises(TypeError):
        table.events("played")[0].data["card"] = "AS"
    copied = dict(actions[0])
    copied["card"] = "AS"  # a copy is an ordinary dict
    assert copied == {"type": "play", "card": "AS"} and actions[0] != copied


def test_views_do_not_depend_on_the_states_viewed_before():
    # A view is built from the state alone: any order of states must give the same views.
    asked = []
    for seats, seed in ((3, 1), (5, 2)):
        position, _ = begin(ENGINE, seats, ENGINE.normalize_options({}, seats), Chance(f"{seed:064x}"))
        rng = random.Random(seed)
        for _ in range(60):
            (seat,) = ENGINE.to_act(position.state)
            action = rng.choice(ENGINE.legal_actions(position.state, seat))
            position, _ = apply_action(ENGINE, position, seat, action, Chance(f"{seed:064x}", (), position.shuffles))
            asked += [(position.state, viewer) for viewer in (None, *range(seats))]
    in_order = [json.dumps(ENGINE.view(state, viewer)) for state, viewer in asked]
    shuffled = list(range(len(asked)))
    random.Random(3).shuffle(shuffled)
    for index in shuffled:
        assert json.dumps(ENGINE.view(*asked[index])) == in_order[index]
