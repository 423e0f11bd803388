"""Rules versions: each engine plays every version it has shipped, and versions differ only where their rules
do (docs/rules-versions.md). Spite and Malice 2 reshuffles as soon as the stock falls below 12 cards; Tarocchi 2
lets the declarer discard the Fuggitivo. Version 1 of both is checked too, beside the scenarios of
tests/engines/<kind>/ and the golden logs of both versions (tests/golden)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine import registry
from games.engine.cards import french_deck
from games.engine.protocol import IllegalAction, InvalidOptions
from games.engine.runner import random_playout
from games.rules.spite_and_malice import ENGINE as SPITE
from games.rules.tarocchi_mineo import ENGINE as TAROCCHI
from games.rules.tarocchi_mineo.cards import FUG
from tests.engines.spite_and_malice.positions import hand_play, play, position, row_play, types
from tests.engines.tarocchi_mineo.table import Table, arrange

END_TURN = {"type": "end_turn"}
HEARTS_AND_SPADES = " ".join(card for card in french_deck() if card[-1] in "SH")


@pytest.mark.parametrize("kind", registry.kinds())
def test_every_engine_names_its_versions_and_plays_each_of_them(kind):
    engine = registry.get(kind)
    assert engine.rules_version == max(engine.rules_versions) and list(engine.rules_versions) == sorted(
        engine.rules_versions)
    assert all(isinstance(text, str) and text for text in engine.rules_versions.values())
    for version in engine.rules_versions:
        older = registry.get(kind, version)
        assert (older.kind, older.rules_version, older.rules_versions) == (kind, version, engine.rules_versions)
        assert older.at_version(engine.rules_version).rules_version == engine.rules_version
    with pytest.raises(InvalidOptions) as unknown:
        engine.at_version(max(engine.rules_versions) + 1)
    assert unknown.value.code == "unknown_rules_version"


def test_the_two_seed_readings_are_version_2():
    assert SPITE.rules_version == 2 and TAROCCHI.rules_version == 2
    assert registry.get("muscio").rules_version == registry.get("machiavelli").rules_version == 1
    assert registry.get("diavoletto").rules_version == 1


# -- Spite and Malice: when the stock is reshuffled ----------------------------------------------------------


def _short_stock_table(stock: str, completed: str = HEARTS_AND_SPADES, **zones):
    zones.setdefault("hands", ["9C 10C", "3C 4C 6C 8S 10S"])
    zones.setdefault("goals", ["QS 9D", "KC QC"])
    return position(SPITE, stock=stock, completed=completed, moved=True, **zones)


@pytest.mark.parametrize("version", [1, 2])
def test_a_draw_leaving_fewer_than_12_reshuffles_at_once_in_version_2_only(version):
    twelve = "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"
    table = _short_stock_table(twelve)
    after, events = play(SPITE.at_version(version), table, 0, END_TURN)
    if version == 1:  # 12 at the draw: drawn from, and reshuffled only at the next draw
        assert types(events) == ["end_turn", "draw"]
        assert len(after.stock) == 9 and len(after.completed) == 26
        return
    assert types(events) == ["end_turn", "draw", "shuffle"]
    shuffle = events[2]
    assert shuffle.data["purpose"] == "recycle" and shuffle.visible_to == frozenset()
    assert Counter(shuffle.data["cards"]) == Counter(table.stock[3:] + table.completed)
    assert len(after.stock) == 35 and after.completed == () and len(after.hands[0]) == 5


@pytest.mark.parametrize("version", [1, 2])
def test_a_completed_pile_with_a_short_stock_reshuffles_at_once_in_version_2_only(version):
    table = _short_stock_table("2D 3D 4D", completed="", hands=["KH 9C 10C", "3C 4C 6C 8S 10S"],
                               centre=["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH"])
    after, events = play(SPITE.at_version(version), table, 0, hand_play("KH", 0))
    assert events[0].data["completed"] is True
    if version == 1:
        assert types(events) == ["play"] and len(after.stock) == 3 and len(after.completed) == 13
        return
    assert types(events) == ["play", "shuffle"]
    hearts = tuple(card for card in french_deck() if card[-1] == "H")
    assert Counter(events[1].data["cards"]) == Counter(table.stock + hearts)
    assert len(after.stock) == 16 and after.completed == () and SPITE.to_act(after) == frozenset({0})


def test_version_2_keeps_12_or_more_and_an_empty_completed_as_they_are():
    twelve_after = _short_stock_table("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 2C 3C 5C", completed="")
    after, events = play(SPITE, twelve_after, 0, END_TURN)  # 15 - 3: still 12
    assert types(events) == ["end_turn", "draw"] and len(after.stock) == 12
    nothing_set_aside = _short_stock_table("2D 3D 4D", completed="")
    after, events = play(SPITE, nothing_set_aside, 0, END_TURN)
    assert types(events) == ["end_turn", "draw"] and after.stock == ()


def test_version_2_does_not_reshuffle_once_the_game_is_won():
    table = position(SPITE, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["QD 4D", "KC"], stock="2D 3D",
                     centre=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS"], current=1, completed=HEARTS_AND_SPADES[:2])
    after, events = play(SPITE, table, 1, {"type": "play", "source": "goal", "card": "KC", "center": 0})
    assert types(events) == ["play", "game_over"] and SPITE.result(after)["winner"] == 1


def test_version_2_reshuffles_after_a_completion_from_a_discard_row():
    table = _short_stock_table("2D", completed="", rows={(0, 1): "KH"},
                               centre=["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH"])
    after, events = play(SPITE, table, 0, row_play(1, "KH", 0))
    assert types(events) == ["play", "shuffle"] and len(after.stock) == 14


@pytest.mark.parametrize("version", [1, 2])
def test_spite_and_malice_games_of_both_versions_hold_every_card_and_finish(version):
    engine = SPITE.at_version(version)
    for number in range(20):
        game = random_playout(engine, 2, {"target": 3}, f"{number:064x}", random.Random(number))
        assert game.result is not None
        assert Counter(engine.all_cards(game.position.state)) == Counter(engine.card_set(2, {}))
        if version == 2:  # the invariant of version 2 at every decision: no short stock beside set-aside cards
            state = game.position.state
            assert not (state.completed and len(state.stock) < 12)


# -- Tarocchi: the Fuggitivo in the discard ------------------------------------------------------------------

HAND = ["FUG", "KS", "KB", "T1", "T3", "5S", "6S", "7S", "8S", "9S", "10S", "FS", "CS", "QS", "5B"]


def _declarer(hand: list[str], monte: list[str], version: int) -> Table:
    """Dealer 0; seat 1 goes solo after five cards and is to discard."""
    table = Table([arrange(0, {1: hand}, monte)], dealer=0, rules_version=version)
    table.say("solo")
    assert table.state.phase == "discard" and table.turn == 1
    return table


def _refused(table: Table, action: dict) -> str:
    with pytest.raises(IllegalAction) as refused:
        table.act(table.turn, action)
    return refused.value.code


def test_version_2_lets_the_declarer_discard_the_fuggitivo():
    table = _declarer(HAND, ["T2", "T0", "KD"], 2)
    assert any(FUG in option["cards"] for option in table.legal())
    assert all(card == FUG or (card[-1] in "SB" and card[0] != "K") for option in table.legal()
               for card in option["cards"])
    assert _refused(table, {"type": "discard", "cards": ["KS", "5S", "6S"]}) == "invalid_discard"
    assert _refused(table, {"type": "discard", "cards": ["T3", "5S", "6S"]}) == "invalid_discard"
    table.act(1, {"type": "discard", "cards": ["FUG", "5S", "6S"]})
    assert table.state.deal.discard == ("FUG", "5S", "6S") and FUG not in table.state.hands[1]
    assert table.legal() == [{"type": "no_scommessa"}]  # the bet needs the Fuggitivo in hand
    summary = table.finish_deal()
    assert summary["discard"] == ["FUG", "5S", "6S"] and summary["fuggitivo"] is None


def test_version_1_keeps_the_fuggitivo_out_of_the_discard():
    table = _declarer(HAND, ["T2", "T0", "KD"], 1)
    assert not any(FUG in option["cards"] for option in table.legal())
    assert _refused(table, {"type": "discard", "cards": ["FUG", "5S", "6S"]}) == "invalid_discard"


@pytest.mark.parametrize("version", [1, 2])
def test_short_of_plain_cards_the_fuggitivo_goes_before_any_trump_in_version_2(version):
    """Scenario 9's hand: 8B is the only plain card, so version 1 discards it with two trumps; in version 2 the
    Fuggitivo is discardable like a plain card, so it goes before any trump (and the bet is then impossible)."""
    hand = ["T20", FUG] + [f"T{n}" for n in range(19, 6, -1)]
    table = _declarer(hand, ["T5", "KS", "8B"], version)
    options = table.legal()
    if version == 1:
        assert all(FUG not in option["cards"] and "8B" in option["cards"] for option in options)
        table.act(1, {"type": "discard", "cards": ["8B", "T5", "T7"]})
        assert {"type": "scommessa"} in table.legal()
        return
    assert options and all({"8B", FUG} <= set(option["cards"]) for option in options)
    assert _refused(table, {"type": "discard", "cards": ["8B", "T5", "T7"]}) == "invalid_discard"
    table.act(1, {"type": "discard", "cards": ["8B", FUG, "T7"]})
    assert table.legal() == [{"type": "no_scommessa"}]


@pytest.mark.parametrize("version", [1, 2])
def test_search_samples_respect_the_version_s_discard_rule(version):
    table = _declarer(HAND, ["T2", "T0", "KD"], version)
    table.act(1, {"type": "discard", "cards": ["FUG", "5S", "6S"] if version == 2 else ["7S", "5S", "6S"]})
    view = table.view(0)
    rng = random.Random(7)
    samples = [table.engine.sample_state(view, 0, rng) for _ in range(60)]
    assert all(table.engine.view(sample, 0) == view for sample in samples)
    fug_discarded = sum(FUG in sample.deal.discard for sample in samples)
    assert (fug_discarded > 0) if version == 2 else (fug_discarded == 0)
