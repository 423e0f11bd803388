"""The shared patience's shortcut: a compulsory play is looked for only with one of the variant's
`obligation_cards` in reach (hand or goal top), so the variant's rule must never find one without."""

from __future__ import annotations

import random

import pytest

from games.engine import registry
from games.engine.runner import random_playout


@pytest.mark.parametrize("kind", ["spite-and-malice", "diavoletto"])
def test_no_obligation_without_one_of_the_obligation_cards_in_reach(kind):
    engine = registry.get(kind)
    variant = engine.variant
    compulsory = variant.obligation_cards
    checked = 0
    for seed in range(4):
        playout = random_playout(engine, 2, {"target": 12, "max_turns": 200}, "6d" * 32, random.Random(seed),
                                 with_view=False)
        table = None
        for event in playout.events:
            table = engine.evolve(table, event)
            for seat in (0, 1):
                goal = table.goals[seat]
                if compulsory.isdisjoint(table.hands[seat]) and not (goal and goal[0] in compulsory):
                    assert variant.obligation(table, seat) is None
                    checked += 1
    assert checked > 100
