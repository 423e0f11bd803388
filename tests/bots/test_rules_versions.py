"""Bots play legally by the rules version of their game: the heuristic bot for whole games, the search bot (whose
sampled worlds follow the version's rules) at the decisions where the two versions differ."""

from __future__ import annotations

import random

import pytest

from bots.policies import make_policy
from games.engine import registry
from games.engine.chance import Chance
from games.engine.runner import apply_action, begin


def _play(kind: str, version: int, options: dict, seed: int, search_when) -> tuple[int, int]:
    """A game between heuristic bots, the search bot (4 iterations) taking the decisions `search_when(view)`
    picks; every choice must be one of the legal actions. Returns (decisions, of which by search)."""
    engine = registry.get(kind, version)
    heuristic = make_policy("heuristic", engine)
    search = make_policy("search", engine, {"iterations": 4})
    chance = Chance(f"{seed:064x}")
    seats = engine.seats.start
    position, _ = begin(engine, seats, engine.normalize_options(options, seats), chance)
    rng = random.Random(seed)
    decisions = searched = 0
    while engine.result(position.state) is None:
        seat = min(engine.to_act(position.state))
        view, legal = engine.view(position.state, seat), engine.legal_actions(position.state, seat)
        policy = heuristic
        if search_when(view) and searched < 12:
            policy, searched = search, searched + 1
        action = policy(view, seat, legal, rng)
        assert action in legal, (kind, version, action)
        position, _ = apply_action(engine, position, seat, action, chance)
        decisions += 1
    return decisions, searched


@pytest.mark.parametrize("version", [1, 2])
def test_tarocchi_bots_discard_legally_under_both_versions(version):
    searched = 0
    for seed in (1, 2):
        _, by_search = _play("tarocchi-mineo", version, {"deals": 4}, seed, lambda view: view["phase"] == "discard")
        searched += by_search
    assert searched >= 4


@pytest.mark.parametrize("version", [1, 2])
def test_spite_and_malice_bots_play_legally_under_both_versions(version):
    decisions, searched = _play("spite-and-malice", version, {}, 3, lambda view: view["stock_count"] < 20)
    assert decisions > 50 and searched > 0


@pytest.mark.parametrize(("version", "placed"), [(1, {"FUG", "T20"}), (2, {"T20"})])
def test_the_tarocchi_heuristic_places_a_shown_fuggitivo_with_the_declarer_only_where_no_discard_holds_it(
        version, placed):
    """The declarer's monte showed Giove and the Fuggitivo: by version 1 both are in the declarer's hand, by
    version 2 the Fuggitivo may have been discarded, so the other seats' inference must not place it."""
    from bots.policies.heuristic import tarocchi_mineo

    view = {"declarer": 0, "monte": ["FUG", "T20", "5S"], "commits": [], "forced": False, "call": None,
            "partner": None, "called": None}
    assert tarocchi_mineo._known_holdings(view, 1, set(), version) == {0: placed}
    choose = make_policy("heuristic", registry.get("tarocchi-mineo", version))
    assert choose.keywords["rules_version"] == version  # the bot of a game plays by that game's version
