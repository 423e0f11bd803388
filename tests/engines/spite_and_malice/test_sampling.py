"""`sample_state` deals hidden cards only where they can be: goal piles come from the goal pack, which has
no joker, so a sampled goal pile never holds one (search bots play on these sampled tables)."""

import random

from games.engine.cards import JOKER
from games.rules.diavoletto import ENGINE as DIAVOLETTO
from games.rules.spite_and_malice import ENGINE as SPITE
from tests.engines.spite_and_malice.positions import position


def test_sampled_goal_piles_hold_no_joker_and_every_card_is_somewhere():
    for engine in (SPITE, DIAVOLETTO):
        # few cards in sight, long goal piles: without the rule, jokers would land in them almost always
        table = position(engine, hands=["3C 4C 6C 8S 10S", ""],
                         goals=["KC 2H 3H 4H 5H 6H 7H 8H 9H", "QC 2S 3S 4S 5S 6S 7S 8S 9S 10S"])
        view = engine.view(table, 0)
        for seed in range(30):
            sampled = engine.sample_state(view, 0, random.Random(seed))
            assert all(JOKER not in goal for goal in sampled.goals)
            assert sorted(engine.all_cards(sampled)) == sorted(engine.all_cards(table))
            assert engine.view(sampled, 0) == view
