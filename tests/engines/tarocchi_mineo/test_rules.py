"""Conformance scenarios of rules/tarocchi-mineo.md §13, one test (or more) each, plus the rules around them."""

from __future__ import annotations

import json

import pytest

from games.engine.chance import Chance
from games.engine.protocol import IllegalAction, InvalidOptions
from games.engine.runner import apply_action, fold
from games.rules.tarocchi_mineo import ENGINE
from games.rules.tarocchi_mineo.cards import DECK, TRUMP_NAMES
from games.rules.tarocchi_mineo.scoring import card_points, jochi_of, settlement, thirds
from games.rules.tarocchi_mineo.state import Deal, Match, State

from .table import Table, arrange

# -- crafted play positions -----------------------------------------------------------------------------


def play_position(hands: dict[int, list[str]], trick=(), turn: int = 1, leader: int = 0, n_tricks: int = 0,
                  declarer: int = 1) -> State:
    """A play-phase state with these hands; the cards not in hands or trick fill `n_tricks` old tricks."""
    all_hands = tuple(tuple(hands.get(seat, ())) for seat in range(4))
    in_play = {c for h in all_hands for c in h} | {c for _, c in trick}
    rest = [c for c in DECK if c not in in_play]
    tricks = []
    for _ in range(n_tricks):
        cards, rest = rest[:4], rest[4:]
        tricks.append((0, tuple(enumerate(cards)), 0))
    discard = tuple(rest)
    match = Match(4, 0, 0, (0, 0, 0, 0), ())
    deal = Deal(declarer=declarer, contract="solo", discard=discard)
    return State(match, deal, "play", turn, all_hands, leader, tuple(trick), tuple(tricks))


def legal_cards(state: State, seat: int) -> list[str]:
    return sorted(action["card"] for action in ENGINE.legal_actions(state, seat))


def refuse(state: State, seat: int, action: dict, engine=ENGINE) -> str:
    with pytest.raises(IllegalAction) as refused:
        engine.decide(state, seat, action, Chance("00" * 32))
    return refused.value.code


def test_scenario_1_following_a_suit_card():
    state = play_position({1: ["T0", "KS", "9D", "FUG"]}, trick=[(0, "7C")], n_tricks=11)
    assert legal_cards(state, 1) == ["FUG", "T0"]
    assert refuse(state, 1, {"type": "play", "card": "KS"}) == "must_follow_suit"
    assert refuse(state, 1, {"type": "play", "card": "7C"}) == "card_not_in_hand"
    state = play_position({1: ["KS", "9D", "FUG"]}, trick=[(0, "7C")], n_tricks=12)
    assert legal_cards(state, 1) == ["9D", "FUG", "KS"]


def test_following_a_suit_card_when_holding_the_suit():
    state = play_position({1: ["5C", "KC", "T3", "FUG", "KS"]}, trick=[(0, "7C")], n_tricks=10)
    assert legal_cards(state, 1) == ["5C", "FUG", "KC"]  # no need to beat; never forced to trump


def test_scenario_2_trump_lead_when_void_in_trumps():
    state = play_position({1: ["5C", "6C", "QD"]}, trick=[(0, "T5")], n_tricks=12)
    assert legal_cards(state, 1) == ["5C", "6C", "QD"]
    state = play_position({1: ["5C", "T0", "QD"]}, trick=[(0, "T5")], n_tricks=12)
    assert legal_cards(state, 1) == ["T0"]  # any trump, no need to overtrump


def test_scenario_3_fuggitivo_cannot_lead():
    state = play_position({1: ["FUG", "8S", "9S"]}, turn=1, leader=1, n_tricks=6)
    assert legal_cards(state, 1) == ["8S", "9S"]
    assert refuse(state, 1, {"type": "play", "card": "FUG"}) == "fuggitivo_cannot_lead"


def test_scenario_3_fuggitivo_leads_the_last_trick_and_the_next_player_chooses_the_suit():
    state = play_position({1: ["FUG"], 2: ["5C"], 3: ["KS"], 0: ["6C"]}, turn=1, leader=1, n_tricks=14)
    assert legal_cards(state, 1) == ["FUG"]
    events = ENGINE.decide(state, 1, {"type": "play", "card": "FUG"}, Chance("00" * 32))
    state = fold(ENGINE, events, _pos(state)).state
    assert legal_cards(state, 2) == ["5C"]
    for seat, card in ((2, "5C"), (3, "KS"), (0, "6C")):
        events = ENGINE.decide(state, seat, {"type": "play", "card": card}, Chance("00" * 32))
        state = fold(ENGINE, events, _pos(state)).state
    trick = [e for e in events if e.type == "trick"][0]
    assert trick.data["winner"] == 0  # 6C beats 5C: cups set by seat 2; KS is off-suit; FUG never wins
    assert state.match.history[-1]["last_trick"] == "opponents"


def _pos(state):
    from games.engine.runner import Position

    return Position(state, 0, 0)


# -- scenario 4: the pending Fuggitivo ------------------------------------------------------------------

SOLOIST = ["T20", "T19", "T18", "T17", "T16", "T15", "T14", "T13", "T12", "T11", "T10", "T9", "T8", "T7", "KS"]
PENDING_HANDS = {
    1: SOLOIST,
    2: ["T6", "T5", "KB", "QB", "CB", "FB", "10B", "9B", "8B", "7B", "6B", "5B", "KC", "QC", "CC"],
    0: ["FUG", "T4", "QS", "CS", "FS", "10C", "9C", "8C", "7C", "6C", "5C", "FC", "KD", "QD", "CD"],
    3: ["T3", "T2", "T1", "T0", "10S", "9S", "8S", "FD", "10D", "9D", "8D", "7D", "6D", "5D", "4D"],
}


def _solo_table() -> Table:
    table = Table([arrange(0, PENDING_HANDS, ["5S", "6S", "7S"])], dealer=0)
    table.say("pass", "pass", "pass", "pass")  # stata round: seats 1, 2, 3, 0
    table.say("solo", "pass", "pass", "pass")  # full-deal round: seat 1 solo
    assert table.state.deal.contract == "solo" and table.state.deal.declarer == 1
    assert table.legal() == [{"type": "discard", "cards": ["7S", "6S", "5S"]}]
    table.act(1, {"type": "discard", "cards": ["5S", "6S", "7S"]})
    table.say("no_scommessa", "no_rivanto", "no_rivanto", "no_rivanto")
    assert table.state.phase == "play" and table.turn == 2
    table.play("KB", "T0", "FUG", "T7")
    assert table.state.tricks[-1][2] == 1
    return table


def test_scenario_4_pending_fuggitivo_joins_the_opponents_at_their_first_trick():
    table = _solo_table()
    status = table.view(None)["fuggitivo"]
    assert status == {"owner": 0, "trick": 0, "trick_winner": 1, "status": "pending"}
    table.play("T8", "T5", "T2", "T4")
    assert table.state.tricks[-1][2] == 1
    assert table.view(3)["fuggitivo"]["status"] == "pending"
    table.play("KS", "T6", "8S", "QS")
    assert table.state.tricks[-1][2] == 2
    assert table.view(1)["fuggitivo"]["status"] == "assigned"
    summary = table.finish_deal()
    assert summary["fuggitivo"] == {"owner": 0, "side": "opponents"}


def test_scenario_4_variant_fuggitivo_goes_to_the_soloist_when_the_opponents_win_nothing():
    table = _solo_table()
    for trump in range(8, 21):
        table.play(f"T{trump}")
        while table.state.trick:
            table.act(table.turn, table.legal()[0])
        assert table.state.tricks[-1][2] == 1
    table.play("KS")
    summary = table.finish_deal(lambda actions: actions[0])
    assert summary["fuggitivo"] == {"owner": 0, "side": "declarer"}
    assert summary["totals"] == {"declarer": 109, "opponents": 0}
    assert summary["card_points"] == {"declarer": 104, "opponents": 0}


# -- scenario 5: the called card ------------------------------------------------------------------------

CALLER = ["T20", "T19", "T17", "T15", "KS", "QS", "CS", "FS", "10S", "9S", "8S", "7S", "6S", "5S", "KB"]


def test_scenario_5_called_card_is_the_highest_trump_the_caller_lacks():
    table = Table([arrange(0, {1: CALLER, 3: ["T18"]})], dealer=0)
    table.say("pass", "pass", "pass", "pass")
    assert table.legal(1) == [{"type": "pass"}, {"type": "call"}, {"type": "solo"}]
    table.say("call")
    bid = table.events_of("bid")[-1]
    assert bid.visible_to is None and bid.data["called"] == "T18"
    assert table.legal(2) == [{"type": "pass"}, {"type": "solo"}]  # no second call
    table.say("pass", "pass", "pass")
    deal = table.state.deal
    assert (deal.contract, deal.declarer, deal.called, deal.partner) == ("call", 1, "T18", 3)


def test_scenario_5_called_card_in_the_monte_makes_a_forced_soloist_settled_as_a_solo():
    table = Table([arrange(0, {1: CALLER}, ["T18", "4D", "5D"])], dealer=0)
    table.say("pass", "pass", "pass", "pass", "call", "pass", "pass", "pass")
    assert table.events_of("forced_solo")
    assert table.state.deal.contract == "forced_solo" and table.state.deal.partner == -1
    assert "T18" in table.state.hands[1]
    summary = table.finish_deal()
    assert summary["type"] == "forced_solo" and summary["partner"] is None
    d = summary["difference"]
    sign = 1 if summary["winner"] == "declarer" else -1
    assert summary["scores"] == {"0": -sign * d, "1": 3 * sign * d, "2": -sign * d, "3": -sign * d}


def test_a_later_solo_overrides_a_call():
    table = Table([arrange(0, {1: CALLER})], dealer=0)
    table.say("pass", "pass", "pass", "pass", "call", "pass", "solo")
    assert table.legal(0) == [{"type": "pass"}]  # nothing left to overbid
    table.say("pass")
    deal = table.state.deal
    assert (deal.contract, deal.declarer, deal.called) == ("solo", 3, None)


# -- scenario 6: everybody passes -----------------------------------------------------------------------


def test_scenario_6_forced_call_by_the_holder_of_giove():
    hands = {3: ["T20", "T19"], 0: ["T17"]}
    table = Table([arrange(0, hands, ["T18", "4D", "5D"])], dealer=0)
    table.say(*["pass"] * 8)
    contract = table.events_of("contract")[-1]
    assert contract.data == {"declarer": 3, "contract": "call", "called": None, "forced": True}
    assert table.state.phase == "discard" and table.turn == 3
    assert len(table.state.hands[3]) == 18 and table.view(0)["called"] is None
    discard = table.legal()[0]
    table.act(3, discard)
    called = table.events_of("called")[-1]
    assert called.visible_to is None and called.data["card"] == "T17"  # T20, T19, T18 are among its 18
    assert table.state.deal.partner == 0 and table.state.phase == "commit"
    summary = table.finish_deal()
    assert summary["type"] == "call" and summary["forced"] and summary["partner"] == 0
    assert summary["scores"]["3"] == summary["scores"]["0"] == -summary["scores"]["1"] == -summary["scores"]["2"]


def test_scenario_6_giove_in_the_monte_annuls_the_deal():
    table = Table([arrange(0, {}, ["T20", "4D", "5D"])], dealer=0)
    table.say(*["pass"] * 8)
    annulled = table.events_of("deal_annulled")[-1]
    assert annulled.data["monte"] == ["T20", "4D", "5D"]
    state = table.state
    assert state.match.history[0]["type"] == "annulled"
    assert state.match.scores == (0, 0, 0, 0) and state.match.deal_no == 1
    assert state.match.dealer == 1 and state.phase == "stata" and state.turn == 2  # dealer moved right
    assert len(table.events_of("shuffle")) == 2


# -- scenario 7: stata ----------------------------------------------------------------------------------


def test_scenario_7_stata_solo_after_five_cards():
    table = Table([arrange(0, {})], dealer=0)
    assert all(len(hand) == 5 for hand in table.state.hands)
    table.say("pass", "solo")
    state = table.state
    assert state.deal.stata_bids == ((1, "pass"), (2, "solo")) and state.deal.bids == ()
    assert state.phase == "discard" and state.turn == 2
    assert [len(h) for h in state.hands] == [15, 15, 18, 15]
    monte = table.events_of("monte")[-1]
    assert monte.visible_to is None and monte.data == {"seat": 2, "cards": arrange(0, {})[60:]}
    table.act(2, table.legal()[0])
    table.say("no_scommessa", "no_rivanto", "no_rivanto", "no_rivanto")
    assert table.turn == 3  # next(declarer) leads
    summary = table.finish_deal()
    d, sign = summary["difference"], (1 if summary["winner"] == "declarer" else -1)
    assert summary["type"] == "stata"
    assert summary["scores"] == {"0": -2 * sign * d, "1": -2 * sign * d, "2": 6 * sign * d, "3": -2 * sign * d}


# -- scenario 8: discard restrictions -------------------------------------------------------------------


def _stata_declarer(hand: list[str], monte: list[str], rules_version: int | None = None) -> Table:
    table = Table([arrange(0, {1: hand}, monte)], dealer=0, rules_version=rules_version)
    table.say("solo")
    assert table.state.phase == "discard" and table.turn == 1
    return table


def test_scenario_8_discard_restrictions_with_few_plain_cards():
    table = _stata_declarer([f"T{n}" for n in range(20, 5, -1)], ["T5", "KS", "8B"])
    options = table.legal()
    low = {f"T{n}" for n in range(5, 16)}
    assert len(options) == 55
    for option in options:
        cards = option["cards"]
        assert "8B" in cards and len(set(cards) - {"8B"} & low) == 2
    state = table.state
    for bad in (["8B", "KS", "T5"], ["8B", "T16", "T5"], ["8B", "T20", "T5"], ["T5", "T6", "T7"], ["8B", "8B", "T5"]):
        assert refuse(state, 1, {"type": "discard", "cards": bad}) == "invalid_discard"
    assert refuse(state, 1, {"type": "discard", "cards": ["8B", "T5", "T1"]}) == "card_not_in_hand"
    assert refuse(state, 1, {"type": "discard", "cards": ["8B", "T5"]}) == "invalid_discard"


def test_discard_never_holds_trumps_kings_or_the_fuggitivo_when_plain_cards_suffice():
    """Rules version 1 (DECISION TM-11); version 2 lets the Fuggitivo go (test_rules_versions)."""
    hand = ["FUG", "KS", "KB", "T1", "T3", "5S", "6S", "7S", "8S", "9S", "10S", "FS", "CS", "QS", "5B"]
    table = _stata_declarer(hand, ["T2", "T0", "KD"], rules_version=1)
    for option in table.legal():
        assert all(card[-1] in "SB" and card[0] != "K" for card in option["cards"])
    for bad in (["FUG", "5S", "6S"], ["KS", "5S", "6S"], ["T3", "5S", "6S"], ["T1", "5S", "6S"]):
        assert refuse(table.state, 1, {"type": "discard", "cards": bad}, table.engine) == "invalid_discard"
    table.act(1, {"type": "discard", "cards": ["QS", "CS", "FS"]})
    assert table.state.deal.discard == ("QS", "CS", "FS")


# -- scenarios 9 and 10: scommessa and rivanto ---------------------------------------------------------


def test_scenario_9_scommessa_needs_giove_and_the_fuggitivo():
    table = _stata_declarer([f"T{n}" for n in range(20, 5, -1)], ["T5", "KS", "8B"])
    table.act(1, {"type": "discard", "cards": ["8B", "T5", "T6"]})
    assert table.legal() == [{"type": "no_scommessa"}]
    assert refuse(table.state, 1, {"type": "scommessa"}) == "scommessa_not_allowed"

    # Rules version 1: the Fuggitivo stays in the hand (in version 2 it is discarded before any trump).
    table = _stata_declarer(["T20", "FUG"] + [f"T{n}" for n in range(19, 6, -1)], ["T5", "KS", "8B"], 1)
    table.act(1, {"type": "discard", "cards": ["8B", "T5", "T7"]})
    assert table.legal() == [{"type": "no_scommessa"}, {"type": "scommessa"}]
    table.say("scommessa")
    assert table.state.deal.commits == ((1, "scommessa"),) and table.turn == 2


def test_scenario_10_rivanto_only_for_real_opponents_and_only_once():
    caller = ["T20", "T19", "T17"] + [c for c in DECK if c[-1] == "B"][:12]
    table = Table([arrange(0, {2: caller, 3: ["T18"]})], dealer=0)
    table.say("pass", "pass", "pass", "pass", "pass", "call", "pass", "pass")  # seat 2 calls T18
    assert table.state.deal.partner == 3
    table.act(2, table.legal()[0])
    table.say("no_scommessa")
    assert table.turn == 3 and table.legal() == [{"type": "no_rivanto"}]  # the secret partner
    assert refuse(table.state, 3, {"type": "rivanto"}) == "rivanto_not_allowed"
    table.say("no_rivanto")
    assert table.turn == 0 and table.legal() == [{"type": "no_rivanto"}, {"type": "rivanto"}]
    table.say("rivanto")
    assert table.state.phase == "play" and table.turn == 3  # seat 1 is not asked; next(declarer) leads
    assert [seat for seat, _ in table.state.deal.commits] == [2, 3, 0]


# -- scenario 11: card points ---------------------------------------------------------------------------

SIDE_A_CS = ["T20", "T18", "KS", "KD", "QC", "CB", "FD", "FUG"]


def _worked_example_piles() -> tuple[list[str], list[str]]:
    scartine = [c for c in DECK if c not in SIDE_A_CS and c[0] not in "KQCF" and c not in ("T20", "T19", "T18",
                                                                                             "T17", "T16", "T1")]
    assert len(scartine) == 40
    side_a = SIDE_A_CS + scartine[:22]
    return side_a, [c for c in DECK if c not in side_a]


def test_scenario_11_card_points_by_thirds():
    side_a, side_b = _worked_example_piles()
    assert (len(side_a), len(side_b)) == (30, 33)
    assert thirds(side_a) == 138 and card_points(side_a) == 46
    assert thirds(side_b) == 174 and card_points(side_b) == 58
    # residue example: 10 CS worth 50 + 22 scartine -> 152 thirds -> 51; 2 leftover scartine count 1
    assert (152 + 1) // 3 == 51 and (160 + 1) // 3 == 53


@pytest.mark.parametrize(("last_winner", "totals"), [(2, [46, 63]), (1, [51, 58])])
def test_scenario_11_last_trick_and_rimatura(last_winner, totals):
    side_a, side_b = _worked_example_piles()
    deal = Deal(declarer=1, contract="solo")
    side = [1, 0, 1, 1]  # seat 1 is side A (declarer), the others side B
    tricks = ((0, ((0, "5S"), (1, "6S"), (2, "7S"), (3, "8S")), last_winner),)
    points = [card_points(side_a), card_points(side_b)]
    got = [points[s] + (5 if side[last_winner] == s else 0) for s in (0, 1)]
    assert got == totals and sum(got) == 109
    detail = jochi_of(deal, tricks, side, (side_a, side_b), got)
    assert detail[0]["rimatura"] == 0 and detail[1]["rimatura"] == 1


# -- scenario 12: pigliata ------------------------------------------------------------------------------


def test_scenario_12_pigliata_only_across_sides():
    solo = Deal(declarer=1, contract="solo")
    side = [1, 0, 1, 1]
    tricks = ((1, ((1, "T18"), (2, "T19"), (3, "5C"), (0, "6C")), 2),)
    detail = jochi_of(solo, tricks, side, ([], []), [0, 109])
    assert detail[1]["pigliata"] == 1 and detail[0]["pigliata"] == 0

    call = Deal(declarer=1, contract="call", called="T19", partner=3)
    side = [1, 0, 1, 0]
    tricks = ((1, ((1, "T20"), (2, "5C"), (3, "T16"), (0, "6C")), 1),)
    detail = jochi_of(call, tricks, side, ([], []), [109, 0])
    assert detail[0]["pigliata"] == detail[1]["pigliata"] == 0


# -- scenario 13 and the worked examples of §9.4 --------------------------------------------------------


def test_scenario_13_call_settlement():
    deal = Deal(declarer=1, contract="call", called="T19", partner=3)
    difference, winner, deltas = settlement(deal, [1, 0, 1, 0], [7, 1])
    assert (difference, winner, deltas) == (6, 0, [-6, 6, -6, 6]) and sum(deltas) == 0


def test_worked_example_call_jochi():
    deal = Deal(declarer=1, contract="call", called="T19", partner=3, commits=((1, "scommessa"), (2, "rivanto")))
    side = [1, 0, 1, 0]
    caller_cards = ["T20", "T19", "T18", "T17", "T16", "T1", "FUG"]
    opponents_cards = ["KS", "KB", "KC", "KD"]
    tricks = (
        (0, ((0, "T1"), (1, "T20"), (2, "5C"), (3, "6C")), 1),  # T1 captured from seat 0
        (3, ((3, "7C"), (0, "8C"), (1, "9C"), (2, "10C")), 3),  # caller side wins the 15th trick
    )
    detail = jochi_of(deal, tricks, side, (caller_cards, opponents_cards), [58, 51])
    assert detail[0] == {"rimatura": 1, "vanto": 1, "rivanto": 1, "quattro_re": 0, "quattro_arie": 1,
                         "cinque_arie": 1, "pigliata": 1, "scommessa": 1}
    assert sum(detail[0].values()) == 7 and sum(detail[1].values()) == 1 and detail[1]["quattro_re"] == 1


def test_worked_example_solo_and_stata_settlement():
    side = [1, 1, 0, 1]
    assert settlement(Deal(declarer=2, contract="solo"), side, [2, 3])[2] == [1, 1, -3, 1]
    assert settlement(Deal(declarer=2, contract="stata"), side, [2, 3])[2] == [2, 2, -6, 2]
    assert settlement(Deal(declarer=2, contract="solo"), side, [3, 3]) == (0, None, [0, 0, 0, 0])


# -- deck, options, match -------------------------------------------------------------------------------


def test_deck_and_trump_names():
    assert len(DECK) == 63 and len(set(DECK)) == 63
    assert sorted(ENGINE.card_set(4, {})) == sorted(DECK)
    assert TRUMP_NAMES["T20"] == "Giove" and TRUMP_NAMES["T1"] == "I Picciotti" and TRUMP_NAMES["T0"] == "La Miseria"
    assert "4D" in DECK and "4S" not in DECK and "FUG" in DECK


def test_counter_clockwise_packets_and_the_monte():
    deck = list(reversed(DECK))
    table = Table([deck], dealer=2)
    deals = table.events_of("deal")
    assert [e.data["seat"] for e in deals] == [3, 0, 1, 2]  # next(dealer) first, dealer last
    assert deals[0].data["cards"] == deck[0:5] and deals[3].data["cards"] == deck[15:20]
    table.say("pass", "pass", "pass", "pass")
    deals = table.events_of("deal")[4:]
    assert [e.data["seat"] for e in deals] == [3, 0, 1, 2]
    assert deals[0].data["cards"] == deck[20:25] + deck[40:45]
    assert table.state.deal.stock == tuple(deck[60:63])


def test_options():
    assert ENGINE.normalize_options({}, 4) == {"deals": 8, "first_dealer": None}
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({"deals": 6}, 4)
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({}, 3)
    with pytest.raises(InvalidOptions):
        ENGINE.normalize_options({"first_dealer": 4}, 4)


def test_first_dealer_drawn_or_given():
    table = Table(dealer=3)
    assert table.state.match.dealer == 3 and table.turn == 0
    from games.engine.runner import begin

    _, events = begin(ENGINE, 4, ENGINE.normalize_options({}, 4), Chance("cd" * 32))
    drawn = [e for e in events if e.type == "first_dealer"][0]
    assert drawn.visible_to is None and drawn.data["source"] == "rng"
    assert drawn.data["seat"] == Chance("cd" * 32).randbelow(4, "first_dealer")


def test_a_whole_match_is_one_game_with_a_ranking():
    table = Table(dealer=1, deals=4, seed="12" * 32)
    dealers = []
    while ENGINE.result(table.state) is None:
        if table.state.phase == "stata" and not table.state.deal.stata_bids:
            dealers.append(table.state.match.dealer)
        table.act(table.turn, table.legal()[-1])
    result = ENGINE.result(table.state)
    assert dealers == [1, 2, 3, 0]
    assert result["deals_played"] == 4 and len(result["deals"]) == 4
    totals = [sum(deal["scores"][str(s)] for deal in result["deals"]) for s in range(4)]
    assert result["scores"] == {str(s): totals[s] for s in range(4)} and sum(totals) == 0
    ranks = {entry["seat"]: entry["rank"] for entry in result["ranking"]}
    assert all(ranks[a] < ranks[b] for a in range(4) for b in range(4) if totals[a] > totals[b])
    best = max(totals)
    assert result["winners"] == ([] if min(totals) == best else [s for s in range(4) if totals[s] == best])
    json.dumps(result)
    with pytest.raises(IllegalAction):
        apply_action(ENGINE, table.position, 0, {"type": "pass"}, table.chance)


def test_wrong_phase_and_unknown_card_are_refused_with_codes():
    table = Table([arrange(0, {})], dealer=0)
    assert refuse(table.state, 1, {"type": "play", "card": "KS"}) == "wrong_phase"
    assert refuse(table.state, 1, {"type": "call"}) == "wrong_phase"  # no call in the stata round
    table.say("pass", "pass", "pass", "pass", "solo")
    assert refuse(table.state, 2, {"type": "solo"}) == "bid_not_allowed"
    table.say("pass", "pass", "pass")
    assert refuse(table.state, 1, {"type": "discard", "cards": ["ZZ", "", "10X"]}) == "card_not_in_hand"
