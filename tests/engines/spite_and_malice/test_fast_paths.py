"""The shared patience engine's fast paths against the plain code they replace (Spite and Malice and
Diavoletto): listed actions (shared play actions, the playable-cards test, the obligation's shortcut), shared
discard and draw events, the compulsory plays, and the Diavoletto first draw worked out without folding
the set-up. The reference functions below are the straightforward versions, kept here only to compare.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import registry
from games.engine.cards import FRENCH_VALUE
from games.engine.chance import Chance
from games.engine.protocol import Event
from games.engine.runner import begin, fold, random_playout
from games.rules.patience.decide import _DISCARDED
from games.rules.patience.moves import NEW, fits, obligation
from games.rules.patience.setup import deal_game
from games.rules.patience.state import JOKER, KING, Match, Table
from games.rules.patience.turns import fill_hand
from games.rules.patience.variant import Obligation, Variant, in_reach, natural_cards
from games.rules.spite_and_malice.rules import forced_plays
from tests.engines.spite_and_malice.positions import SEED, play, position

KINDS = ["spite-and-malice", "diavoletto"]
CARDS = (*FRENCH_VALUE, JOKER)


# -- the plain versions -------------------------------------------------------------------------------


def reference_obligation(variant: Variant, table: Table, seat: int) -> Obligation | None:
    goal = table.goals[seat]
    if variant.obligation_cards.isdisjoint(table.hands[seat]) and not (goal and goal[0] in variant.obligation_cards):
        return None
    return variant.obligation(table, seat)


def reference_legal_actions(variant: Variant, table: Table, seat: int) -> list[dict]:
    """Every action built afresh, each card's places found with `fits`."""
    if table.match.over or seat != table.turn.current:
        return []
    hand, goal = table.hands[seat], table.goals[seat]
    pending = reference_obligation(variant, table, seat)
    if pending is not None and pending.moves is not None:
        return [{"type": "play", "source": source, **({} if row is None else {"pile": row}), "card": card,
                 "center": where} for source, row, card, where in pending.moves]
    wheres = [NEW] + [ident for ident, _ in table.centre]
    values = [0] + [len(cards) for _, cards in table.centre]

    def places(card: str) -> list:
        return [where for where, value in zip(wheres, values, strict=True) if fits(variant, value, card)]

    out: list[dict] = []
    for card in dict.fromkeys(hand):
        out += [{"type": "play", "source": "hand", "card": card, "center": where} for where in places(card)]
    if goal:
        out += [{"type": "play", "source": "goal", "card": goal[0], "center": where} for where in places(goal[0])]
    for row, cards in enumerate(table.rows[seat]):
        if cards:
            out += [{"type": "play", "source": "discard", "pile": row, "card": cards[-1], "center": where}
                    for where in places(cards[-1])]
    if pending is not None:
        return out
    out += [{"type": "discard", "card": card, "pile": row} for card in dict.fromkeys(hand) for row in range(4)]
    if not hand or (variant.end_after_move and table.turn.moved):
        out.append({"type": "end_turn"})
    return out


def reference_in_reach(table: Table, seat: int, value: int) -> list[tuple[str, str]]:
    wanted = natural_cards(value, value)
    found = [("hand", card) for card in dict.fromkeys(table.hands[seat]) if card in wanted]
    goal = table.goals[seat]
    if goal and goal[0] in wanted:
        found.append(("goal", goal[0]))
    return found


def reference_forced_plays(table: Table, seat: int) -> Obligation | None:
    aces = reference_in_reach(table, seat, 1)
    if aces:
        return Obligation("must_play_ace", forced_plays(table, seat).message,
                          tuple((source, None, card, "new") for source, card in aces))
    ones = [ident for ident, cards in table.centre if len(cards) == 1]
    twos = reference_in_reach(table, seat, 2)
    if not ones or not twos:
        return None
    return Obligation("must_play_two", forced_plays(table, seat).message,
                      tuple((source, None, card, ident) for source, card in twos for ident in ones))


def _tables(kind: str, games: int = 6):
    """Every table of seeded random matches of `kind` (several games each, so pile ids run high)."""
    engine = registry.get(kind)
    for game in range(games):
        playout = random_playout(engine, 2, {"target": 30, "max_turns": 300}, f"{game + 7:064x}",
                                 random.Random(game), with_view=False)
        table = None
        for event in playout.events:
            table = engine.evolve(table, event)
            yield table


# -- listed actions -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_listed_actions_are_the_plain_ones_in_the_same_order(kind):
    engine = registry.get(kind)
    checked = 0
    for table in _tables(kind):
        for seat in (0, 1):
            listed = engine.legal_actions(table, seat)
            assert listed == reference_legal_actions(engine.variant, table, seat)
            assert obligation(engine.variant, table, seat) == reference_obligation(engine.variant, table, seat)
            checked += bool(listed)
    assert checked > 500


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_places_and_shared_plays_match_fits_on_any_centre(kind, data):
    """Centres no random game reaches: many piles, high pile ids (past the shared play actions)."""
    engine = registry.get(kind)
    values = data.draw(st.lists(st.integers(1, KING - 1), max_size=8))
    ids = data.draw(st.lists(st.integers(0, 40), min_size=len(values), max_size=len(values), unique=True))
    cards = data.draw(st.permutations(engine.card_set(2, {})))
    sizes = data.draw(st.tuples(st.integers(1, 5), st.integers(0, 2)))
    hand, goal, tops, rest = cards[:sizes[0]], cards[5:5 + sizes[1]], cards[7:11], cards[11:]
    goal = [card for card in goal if card != JOKER]  # goal piles come from the goal pack
    centre = [" ".join(rest.pop() for _ in range(value)) for value in values]
    table = position(engine, hands=[" ".join(hand), ""], goals=[" ".join(goal), ""], centre=centre,
                     pile_ids=ids, rows={(0, row): top for row, top in enumerate(tops)}, moved=True)
    assert engine.legal_actions(table, 0) == reference_legal_actions(engine.variant, table, 0)


def test_plays_on_later_piles_are_built_and_shared_ones_are_read_only():
    engine = registry.get("spite-and-malice")
    table = position(engine, hands=["3C 4C 6C 8S 10S", ""], goals=["KC QD", ""], centre=["AS 2S", "AH 2H 3H"],
                     pile_ids=[2, 30], moved=True)
    plays = [action for action in engine.legal_actions(table, 0) if action["type"] == "play"]
    assert plays == [{"type": "play", "source": "hand", "card": "3C", "center": 2},
                     {"type": "play", "source": "hand", "card": "4C", "center": 30}]
    with pytest.raises(TypeError):
        plays[0]["center"] = 3
    plays[1]["center"] = 3  # built for this call: the caller's own
    assert engine.legal_actions(table, 0)[1]["center"] == 30
    after, _ = play(engine, table, 0, plays[0])
    assert after.centre[0] == (2, ("AS", "2S", "3C"))


# -- events ---------------------------------------------------------------------------------------------


def test_every_shared_discard_event_is_the_plain_one():
    for (seat, card, row, dead_turns), event in _DISCARDED.items():
        assert event == Event("discard", {"seat": seat, "card": card, "pile": row, "dead_turns": dead_turns},
                              None, None, seat)


@pytest.mark.parametrize("kind", KINDS)
def test_a_discard_no_game_reaches_is_built(kind):
    """A table set up with more dead turns than a game allows still gets its discard event."""
    engine = registry.get(kind)
    table = position(engine, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD", "QC JC"], stock="",
                     dead_turns=4)
    _, events = play(engine, table, 0, {"type": "discard", "card": "6C", "pile": 2})
    assert events[0] == Event("discard", {"seat": 0, "card": "6C", "pile": 2, "dead_turns": 5}, None, None, 0)
    assert events[1].type == "game_over" and events[1].data["reason"] == "blocked"


@pytest.mark.parametrize("kind", KINDS)
def test_shared_draw_sides_are_what_the_others_see(kind):
    engine = registry.get(kind)
    for game in range(3):
        playout = random_playout(engine, 2, None, f"{game:064x}", random.Random(game), with_view=False)
        for event in playout.events:
            if event.type == "draw":
                data = event.data
                assert event.public == {"seat": data["seat"], "count": len(data["cards"]), "reason": data["reason"]}
                assert event.visible_to == frozenset((data["seat"],))


# -- compulsory plays and the set-up ----------------------------------------------------------------------


def test_forced_plays_and_in_reach_are_the_plain_ones():
    variant = registry.get("spite-and-malice").variant
    asked = 0
    for table in _tables("spite-and-malice", games=4):
        for seat in (0, 1):
            for value in (1, 2):
                assert in_reach(table, seat, value) == reference_in_reach(table, seat, value)
            if not variant.obligation_cards.isdisjoint(table.hands[seat]):
                assert forced_plays(table, seat) == reference_forced_plays(table, seat)
                asked += 1
    assert asked > 100


_POOL = ["AS", "AS", "AH", "2C", "2C", "2D", "5H", JOKER]


@settings(max_examples=200, deadline=None)
@given(hand=st.lists(st.integers(0, len(_POOL) - 1), unique=True, max_size=5).map(lambda ix: [_POOL[i] for i in ix]),
       goal=st.lists(st.sampled_from(["AD", "2S", "9C"]), max_size=2),
       ones=st.lists(st.sampled_from([0, 3, 5]), unique=True))
def test_forced_plays_on_any_hand_with_duplicates(hand, goal, ones):
    engine = registry.get("spite-and-malice")
    centre = ["AC" if ident == 0 else ("3H" if ident == 3 else JOKER) for ident in ones]
    table = position(engine, hands=[" ".join(hand), ""], goals=[" ".join(goal), ""], centre=centre, pile_ids=ones)
    for value in (1, 2):
        assert in_reach(table, 0, value) == reference_in_reach(table, 0, value)
    assert forced_plays(table, 0) == reference_forced_plays(table, 0)


def test_the_first_diavoletto_draw_is_the_one_of_the_folded_set_up():
    """The first player's draw is worked out from the stock just dealt, without folding the set-up."""
    engine = registry.get("diavoletto")
    for game in range(12):
        start, events = begin(engine, 2, engine.normalize_options({"target": 5}, 2), Chance(f"{game:064x}"))
        first_draw = [event for event in events if event.type == "draw"]
        before = fold(engine, events[:events.index(first_draw[0])]).state
        chance = Chance(f"{game:064x}", (), start.shuffles)
        expected = fill_hand(engine.variant, before, before.turn.current, len(before.hands[before.turn.current]),
                             chance, "turn_start", [])
        assert first_draw == expected
        again = deal_game(engine.variant, engine.evolve(None, events[0]), Chance(f"{game:064x}"), 1)
        assert again == events[1:]


# -- views ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_views_of_equal_matches_are_equal(kind):
    engine = registry.get(kind)
    table = position(engine, hands=["3C 4C 6C 8S 10S", "5H 6H 7H 8H 9H"], goals=["KC QD", "QC JC"],
                     centre=["AS 2S"], target=50, totals=(3, 4))
    first = engine.view(table, 0)
    for game in range(2, 74):  # many other matches viewed in between
        other = table._replace(match=Match(50, 1000, game, (3, 4), (), False))
        assert engine.view(other, 1)["game"] == game
    same = table._replace(match=Match(50, 1000, 1, (3, 4), (), False))
    assert same.match is not table.match and engine.view(same, 0) == first
    assert engine.view(table, 0) == first


def test_the_seed_positions_still_fold_back():
    """A stored log (lists where tuples were, plain dicts where shared ones were) folds to the same table."""
    engine = registry.get("spite-and-malice")
    playout = random_playout(engine, 2, {"target": 8, "max_turns": 120}, SEED, random.Random(3), with_view=False)
    stored = [Event(e.type, {**e.data}, e.public, e.visible_to, e.actor) for e in playout.events]
    assert fold(engine, stored).state == playout.position.state
