"""`State.legal`, the legal plays the fold keeps for the seat to play: always what the rules work out from the
rest of the state, and a state built without it (None) answers `legal_actions` and `decide` the same."""

from __future__ import annotations

import random

import pytest

from games.engine.chance import Chance
from games.engine.protocol import IllegalAction
from games.engine.runner import begin, fold
from games.rules.muscio import ENGINE
from games.rules.muscio.rules import legal_plays
from games.rules.muscio.state import CANONICAL, PLAYING


def _states(seats: int, seed: int):
    """(state, the chance after it) along a seeded random playout."""
    chance = Chance(f"{seed:064x}")
    position, _ = begin(ENGINE, seats, ENGINE.normalize_options({"max_hands": 6}, seats), chance)
    rng = random.Random(seed)
    while ENGINE.result(position.state) is None:
        yield position.state, chance.shuffles_done
        seat = min(ENGINE.to_act(position.state))
        action = rng.choice(ENGINE.legal_actions(position.state, seat))
        position = fold(ENGINE, ENGINE.decide_listed(position.state, seat, action, chance), position)


def _outcome(state, seat, action, shuffles):
    try:
        return ENGINE.decide(state, seat, action, Chance(f"{7:064x}", (), shuffles))
    except IllegalAction as refused:
        return refused.code


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_the_folded_legal_plays_are_the_rules_answer(seats):
    plays = 0
    for seed in range(4):
        for state, _ in _states(seats, seed):
            if state.phase != PLAYING:
                assert state.legal is None
                continue
            plays += 1
            seat = state.turn
            assert state.legal == legal_plays(state.deal, state.hands[seat], state.trick, len(state.history))
            assert ENGINE.rederive(state._replace(frame=None, legal=None)) == state
    assert plays > 50


@pytest.mark.parametrize("seats", [3, 4])
def test_a_state_without_the_field_answers_the_same(seats):
    checked = 0
    for state, shuffles in (found for seed in range(11, 14) for found in _states(seats, seed)):
        if state.phase != PLAYING:
            continue
        bare = state._replace(legal=None)
        seat = state.turn
        assert ENGINE.legal_actions(bare, seat) == ENGINE.legal_actions(state, seat)
        for card in CANONICAL:  # legal, held but refused, and not held at all
            action = {"type": "play", "card": card}
            assert _outcome(bare, seat, action, shuffles) == _outcome(state, seat, action, shuffles)
        checked += 1
    assert checked > 40
