"""Properties every registered engine must have, whatever its rules (OpenSpiel's random_sim_test).

Each game added to the registry gets these for free: playouts terminate, cards are conserved, the log
folds back to the live state, legal actions are accepted and illegal ones refused with a code, and no
view or redacted event shows a card its viewer may not see.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.engine import registry
from games.engine.cards import card_tokens
from games.engine.chance import Chance
from games.engine.protocol import Event, IllegalAction
from games.engine.runner import apply_action, begin, fold

CASES = [(kind, seats) for kind in registry.kinds() for seats in registry.get(kind).seats]
SEEDS_PER_CASE = 12


def _seed(n: int) -> str:
    return f"{n:064x}"


def _round_trip(event: Event) -> Event:
    """The event as it comes back from the database (JSON columns)."""
    return Event(
        event.type,
        json.loads(json.dumps(event.data)),
        json.loads(json.dumps(event.public)) if event.public is not None else None,
        event.visible_to,
        event.actor,
    )


def _play(kind: str, seats: int, seed: int, on_step=None, max_steps: int = 20_000):
    engine = registry.get(kind)
    options = engine.normalize_options({}, seats)
    chance = Chance(_seed(seed))
    position, events = begin(engine, seats, options, chance)
    log = list(events)
    rng = random.Random(seed)
    steps = 0
    while engine.result(position.state) is None:
        assert steps < max_steps, f"{kind} did not end within {max_steps} actions"
        to_act = engine.to_act(position.state)
        assert to_act, "a running game must have someone to act"
        seat = rng.choice(sorted(to_act))
        actions = engine.legal_actions(position.state, seat)
        assert actions, f"seat {seat} is to act but has no legal action"
        if on_step:
            on_step(engine, position, seat, actions, chance, rng)
        action = rng.choice(actions)
        position, new_events = apply_action(engine, position, seat, action, chance)
        log.extend(new_events)
        steps += 1
    return engine, options, position, log


@pytest.mark.parametrize(("kind", "seats"), CASES)
def test_random_playouts_end_with_a_result(kind, seats):
    for seed in range(SEEDS_PER_CASE):
        engine, _, position, _ = _play(kind, seats, seed)
        result = engine.result(position.state)
        assert set(result) >= {"winners", "scores", "reason"}
        assert set(result["winners"]) <= set(range(seats))
        assert engine.to_act(position.state) == frozenset()
        json.dumps(result)


@pytest.mark.parametrize(("kind", "seats"), CASES)
def test_cards_are_conserved(kind, seats):
    def check(engine, position, seat, actions, chance, rng):
        assert Counter(engine.all_cards(position.state)) == full

    for seed in range(3):
        engine = registry.get(kind)
        full = Counter(engine.card_set(seats, engine.normalize_options({}, seats)))
        _, _, position, _ = _play(kind, seats, seed, on_step=check)
        assert Counter(engine.all_cards(position.state)) == full


@pytest.mark.parametrize(("kind", "seats"), CASES)
def test_folding_the_stored_log_rebuilds_the_live_state(kind, seats):
    for seed in range(4):
        engine, _, position, log = _play(kind, seats, seed)
        rebuilt = fold(engine, [_round_trip(e) for e in log])
        assert rebuilt.state == position.state
        assert rebuilt.version == len(log)
        assert rebuilt.shuffles == position.shuffles


@pytest.mark.parametrize(("kind", "seats"), CASES)
def test_legal_actions_are_accepted_and_illegal_ones_refused(kind, seats):
    probe = random.Random(7)

    def check(engine, position, seat, actions, chance, rng):
        if probe.random() > 0.3:
            return
        for action in probe.sample(actions, min(len(actions), 6)):
            trial = Chance(_seed(99), (), position.shuffles)
            apply_action(engine, position, seat, json.loads(json.dumps(action)), trial)
        for bad in _mutations(engine, actions, probe):
            if engine.complete_legal_actions and bad in actions:
                continue
            trial = Chance(_seed(99), (), position.shuffles)
            try:
                apply_action(engine, position, seat, bad, trial)
            except IllegalAction as refused:
                assert refused.code and isinstance(refused.code, str)
            else:
                assert not engine.complete_legal_actions, f"{bad} was accepted but is not a legal action"
        others = set(range(seats)) - engine.to_act(position.state)
        for other in others:
            with pytest.raises(IllegalAction) as refused:
                apply_action(engine, position, other, actions[0], Chance(_seed(99), (), position.shuffles))
            assert refused.value.code == "not_your_turn"

    for seed in range(3):
        _play(kind, seats, seed, on_step=check)


def _mutations(engine, actions, probe: random.Random) -> list:
    """Plausible wrong actions: other cards, other numbers, other types, garbage."""
    cards = sorted(engine.card_ids)
    out: list = [None, 5, "play", [], {}, {"type": 3}, {"type": "no-such-action"}]
    for action in probe.sample(actions, min(len(actions), 4)):
        for field, value in action.items():
            if field == "type":
                continue
            changed = dict(action)
            if isinstance(value, str):
                changed[field] = probe.choice(cards + ["ZZ", "", "10X"])
            elif isinstance(value, bool):
                changed[field] = not value
            elif isinstance(value, int):
                changed[field] = probe.choice([-1, value + 1, 99, "x"])
            else:
                changed[field] = probe.choice([None, 7, "x", [["ZZ"]]])
            out.append(changed)
        without = {k: v for k, v in action.items() if k != next(iter(action.keys() - {"type"}), None)}
        out.append(without)
        out.append({**action, "extra": 1})
        for other_type in engine.action_schemas:
            out.append({**action, "type": other_type})
    return out


@pytest.mark.parametrize(("kind", "seats"), CASES)
def test_views_hide_what_the_viewer_may_not_see(kind, seats):
    """A view must not change when the hidden cards are dealt again at random (so it holds none)."""
    probe = random.Random(11)

    def check(engine, position, seat, actions, chance, rng):
        if probe.random() > 0.25:
            return
        for viewer in [*range(seats), None]:
            view = engine.view(position.state, viewer)
            json.dumps(view)
            for _ in range(2):
                sampled = engine.sample_state(view, viewer, probe)
                assert engine.view(sampled, viewer) == view
                if viewer is not None:
                    assert Counter(engine.all_cards(sampled)) == Counter(engine.all_cards(position.state))

    for seed in range(3):
        _play(kind, seats, seed, on_step=check)


@pytest.mark.parametrize(("kind", "seats"), CASES)
def test_redacted_events_show_no_hidden_card(kind, seats):
    for seed in range(3):
        engine, _, _, log = _play(kind, seats, seed)
        for event in log:
            json.dumps(event.data)
            if event.visible_to is None:
                continue
            for viewer in [*range(seats), None]:
                if viewer is not None and viewer in event.visible_to:
                    continue
                shown = engine.redact(event, viewer)
                assert not card_tokens(shown, engine.card_ids), f"{event.type} shows a card to {viewer}"
