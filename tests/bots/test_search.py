"""The search bot: legal moves in every game, repeatable with `iterations`, finds a winning move, keeps
to its time budget; and the per-deal scoring its rollouts use."""

from __future__ import annotations

import random
import time

import pytest

from bots.policies import POLICIES, make_policy, random_choice
from bots.policies import search as search_module
from bots.policies.deals import GOAL_FITS, SCORING, relative
from bots.policies.search import Search
from games.engine import registry
from games.engine.chance import Chance
from games.engine.protocol import IllegalAction
from games.engine.runner import Position, apply_action, begin
from games.rules.spite_and_malice import ENGINE as SPITE
from tests.engines.spite_and_malice.positions import position

KINDS = registry.kinds()


def _positions(kind: str, seed: int, count: int, spacing: int = 23):
    """Positions of a random game of `kind` where the seat to act has a choice: (engine, position, seat)."""
    engine = registry.get(kind)
    seats = engine.seats.start
    chance = Chance(f"{seed:064x}")
    pos, _ = begin(engine, seats, engine.normalize_options({}, seats), chance)
    rng = random.Random(seed)
    found, steps = [], 0
    while engine.result(pos.state) is None and len(found) < count:
        seat = min(engine.to_act(pos.state))
        legal = engine.legal_actions(pos.state, seat)
        steps += 1
        if len(legal) > 1 and steps % spacing == 0:
            found.append((engine, pos, seat, chance))
        pos, _ = apply_action(engine, pos, seat, rng.choice(legal), chance)
    return found


@pytest.mark.parametrize("kind", KINDS)
def test_search_plays_a_legal_move_in_every_game(kind):
    policy = make_policy("search", registry.get(kind), {"iterations": 2})
    positions = _positions(kind, seed=3, count=3)
    assert positions, "the random game offered no choice"
    for engine, pos, seat, chance in positions:
        legal = engine.legal_actions(pos.state, seat)
        action = policy(engine.view(pos.state, seat), seat, legal, random.Random(1))
        if engine.complete_legal_actions:
            assert action in legal
        # whatever it sends, the engine accepts (Machiavelli: a meld never pays the failed-operation penalty)
        _, events = apply_action(engine, pos, seat, action, chance)
        assert all(event.type != "meld_failed" for event in events)


@pytest.mark.parametrize("kind", KINDS)
def test_with_fixed_iterations_the_move_depends_only_on_view_and_rng(kind):
    engine = registry.get(kind)
    (_, pos, seat, _), *_ = _positions(kind, seed=5, count=1, spacing=11)
    view, legal = engine.view(pos.state, seat), engine.legal_actions(pos.state, seat)
    moves, searches = [], []
    for _ in range(2):
        searcher = Search(engine, budget_ms=None, iterations=3)
        moves.append(searcher.choose(view, seat, legal, random.Random(42)))
        searches.append(searcher.rounds)
    assert moves[0] == moves[1]
    assert searches[0] == searches[1] in (0, 3)  # 0: a single candidate, or the search left it to the heuristic


def _last_goal_card_position():
    """Seat 0 holds its last goal card, a 5, and a pile of value 4 waits for it; its hand fits elsewhere."""
    return position(SPITE, hands=["6C 8S 10S 9D 7D", "3H 4H 6H 8H 9H"], goals=["5H", "KC QD JS 10H 9C 8D"],
                    centre=["AS 2S 3S 4S", "AD 2D 3D 4D 5D", "AC 2C 3C 4C 5C 6C 7C"],
                    rows={(0, 0): "KD", (0, 1): "QS"})


def test_it_finds_the_winning_play_of_the_last_goal_card(monkeypatch):
    # Random rollouts and a random prior: only the search itself can single out the winning move.
    monkeypatch.setattr(search_module, "rollout_policy", lambda engine: random_choice)
    table = _last_goal_card_position()
    legal = SPITE.legal_actions(table, 0)
    winning = {"type": "play", "source": "goal", "card": "5H", "center": 0}
    assert winning in legal and len(legal) >= 6
    view = SPITE.view(table, 0)
    for seed in range(4):
        action = Search(SPITE, budget_ms=None, iterations=4).choose(view, 0, legal, random.Random(seed))
        assert action == winning, seed
    after, _ = apply_action(SPITE, Position(table, 0, 0), 0, winning, Chance("5a" * 32))
    assert SPITE.result(after.state)["winner"] == 0


def test_it_keeps_to_its_time_budget():
    table = _last_goal_card_position()
    view, legal = SPITE.view(table, 0), SPITE.legal_actions(table, 0)
    for budget_ms in (30, 300):
        searcher = Search(SPITE, budget_ms=budget_ms, iterations=None)
        started = time.perf_counter()
        searcher.choose(view, 0, legal, random.Random(0))
        elapsed = time.perf_counter() - started
        # the clock is read between rollouts and every few actions inside one: a small overshoot at most
        assert elapsed < budget_ms / 1000 + 0.25, (budget_ms, elapsed)
    assert elapsed > 0.25 and searcher.rounds >= 1  # the longer budget was spent searching


def test_a_single_legal_move_is_played_at_once():
    searcher = Search(SPITE, budget_ms=60_000, iterations=None)
    only = [{"type": "end_turn"}]
    started = time.perf_counter()
    assert searcher.choose({}, 0, only, random.Random(0)) == only[0]
    assert time.perf_counter() - started < 0.05


def test_options_are_checked_and_listed():
    bot = POLICIES["search"]
    assert bot.kinds is None and set(bot.options) == {"budget_ms"}
    assert bot.options["budget_ms"].default == 200 and bot.options["budget_ms"].maximum == 60_000
    with pytest.raises(ValueError, match="budget_ms"):
        make_policy("search", SPITE, {"budget_ms": 0})
    with pytest.raises(ValueError, match="iterations"):
        make_policy("search", SPITE, {"iterations": "many"})


def test_the_sampled_world_is_all_the_search_sees(monkeypatch):
    """Rollouts start from `sample_state(view)`, never from anything else: a world that refuses the move
    (an inconsistent sample) is skipped rather than crashing the bot."""
    table = _last_goal_card_position()
    calls = []
    real = SPITE.sample_state

    def spy(view, seat, rng):
        calls.append((view, seat))
        return real(view, seat, rng)

    monkeypatch.setattr(SPITE, "sample_state", spy)
    view = SPITE.view(table, 0)
    Search(SPITE, budget_ms=None, iterations=2).choose(view, 0, SPITE.legal_actions(table, 0), random.Random(0))
    assert calls and all(args == (view, 0) for args in calls)


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_has_deal_scoring(kind):
    scoring = SCORING[kind]
    assert scoring.ends and scoring.scale > 0 and scoring.max_steps > 0


def test_relative_gain_is_against_the_others_mean():
    assert relative([6.0, 0.0, 3.0], 0, 3.0) == pytest.approx(1.5)
    assert relative([6.0, 0.0, 3.0], 1, 3.0) == pytest.approx(-1.5)
    assert relative([4.0, 4.0], 1, 2.0) == 0.0


def test_deal_scoring_reads_each_games_closing_event():
    assert SCORING["spite-and-malice"].gains({"points": {"0": 7, "1": 0}}) == [7.0, 0.0]
    assert SCORING["muscio"].gains({"deltas": {"0": -2, "1": 5, "2": 0}}) == [2.0, -5.0, 0.0]  # towards 0
    tarocchi = SCORING["tarocchi-mineo"].gains
    assert tarocchi({"scores": {"0": 3, "1": -1, "2": -1, "3": -1}}) == [3.0, -1.0, -1.0, -1.0]
    assert tarocchi({"monte": [], "summary": {"scores": {"0": 0, "1": 0, "2": 0, "3": 0}}}) == [0.0] * 4
    assert SCORING["machiavelli"].gains({"scores": {"0": -4, "1": 4}}) == [-4.0, 4.0]


def test_a_cut_rollout_is_estimated_from_the_public_view():
    table = _last_goal_card_position()
    estimate = SCORING["spite-and-malice"].estimate(SPITE.view(table, None))
    # fewer goal cards left is better, as the blocked-game scoring says; a goal top that fits counts a little
    assert estimate == pytest.approx([-1.0 + GOAL_FITS, -6.0])  # 5H fits on the 4; KC fits nowhere


def test_a_world_that_refuses_a_move_ends_the_round_without_a_crash(monkeypatch):
    table = _last_goal_card_position()

    def refuse(*args, **kwargs):
        raise IllegalAction("invalid_play", "no")

    searcher = Search(SPITE, budget_ms=None, iterations=3)
    monkeypatch.setattr(searcher, "rollout", refuse)
    legal = SPITE.legal_actions(table, 0)
    prior = searcher.policy(SPITE.view(table, 0), 0, legal, random.Random(0))
    assert searcher.choose(SPITE.view(table, 0), 0, legal, random.Random(0)) in legal
    assert searcher.rounds == 0 and prior in legal


def test_candidates_put_the_prior_first_and_keep_to_the_cap():
    legal = [{"type": "play", "card": str(n)} for n in range(40)]
    prior = legal[17]
    muscio = registry.get("muscio")
    moves = search_module.candidates(muscio, {}, legal, prior, random.Random(0))
    assert moves[0] == prior and moves[1] == legal[0]  # the first listed move is always kept
    assert len(moves) == search_module.MAX_CANDIDATES and len({m["card"] for m in moves}) == len(moves)
    assert search_module.candidates(muscio, {}, legal[:3], legal[2], random.Random(0)) == [legal[2], *legal[:2]]
    assert len(search_module.candidates(SPITE, {}, legal, prior, random.Random(0))) == 8  # the patiences' cap


def test_machiavelli_candidates_are_the_prior_passing_or_drawing_and_the_solvers_best_lay_downs():
    from bots.policies.machiavelli_solver import added_cards, best_melds

    engine = registry.get("machiavelli")
    seen_extra = False
    for _, pos, seat, _ in _positions("machiavelli", seed=4, count=6, spacing=7):
        view, legal = engine.view(pos.state, seat), engine.legal_actions(pos.state, seat)
        if view["opening"]:
            continue
        for prior in [legal[0], *best_melds(view["table"], view["hand"], limit=1)]:
            moves = search_module.candidates(engine, view, legal, prior, random.Random(0))
            assert moves[0] == prior and len(moves) <= search_module.CANDIDATE_CAP["machiavelli"]
            assert legal[0] in moves  # draw (pass on an empty stock): holding back is always a candidate
            seen_extra |= len(moves) > 2
            for move in moves:  # lay-downs the engine accepts, the most cards first
                if move != legal[0]:
                    assert move["type"] == "meld" and added_cards(view["table"], move)
                    assert engine.decide(pos.state, seat, move, Chance("11" * 32))[0].type != "meld_failed"
    assert seen_extra


@pytest.mark.parametrize("kind", KINDS)
def test_rollout_policies_answer_with_legal_moves(kind):
    engine = registry.get(kind)
    policy = search_module.rollout_policy(engine)
    for _, pos, seat, chance in _positions(kind, seed=6, count=4, spacing=5):
        legal = engine.legal_actions(pos.state, seat)
        action = policy(engine.view(pos.state, seat), seat, legal, random.Random(0))
        if engine.complete_legal_actions:
            assert action in legal
        # Machiavelli lists a sample of its melds: a closing meld may be missing from it, yet must be accepted
        _, events = apply_action(engine, pos, seat, action, chance)
        assert all(event.type != "meld_failed" for event in events)


def test_the_tarocchi_card_play_takes_cheaply_feeds_a_partner_and_throws_low():
    from bots.policies.rollouts import tarocchi_trick

    def play(hand, trick, **view):
        legal = [{"type": "play", "card": card} for card in hand]
        seen = {"phase": "play", "trick": trick, "declarer": 0, "contract": "solo", "partner": None, **view}
        return tarocchi_trick(seen, 2, legal, random.Random(0))["card"]

    assert play(["KS", "7S", "T3"], [(0, "5S")]) == "7S"  # the weakest card that beats the soloist's
    assert play(["KS", "7S", "T3"], [(0, "T5")]) == "7S"  # cannot beat it: the cheapest card
    assert play(["KS", "7S", "T3"], [(0, "5S"), (1, "QS")]) == "KS"  # a partner holds it: give it the King
    assert play(["KS", "7S", "T3"], []) == "7S"  # lead cheap
    assert tarocchi_trick({"phase": "auction"}, 2, [{"type": "pass"}], random.Random(0)) is None


#: Where each game's view keeps the match scores, and whether they fall (Muscio counts down to zero).
_MATCH_SCORES = {"spite-and-malice": ("totals", 1), "diavoletto": ("totals", 1), "muscio": ("scores", -1),
                 "tarocchi-mineo": ("scores", 1), "machiavelli": ("scores", 1)}


@pytest.mark.parametrize("kind", KINDS)
def test_deal_gains_read_from_real_closing_events_match_the_change_of_the_match_scores(kind):
    """Each closing event the engine really emits gives, per seat, the change of that seat's match score."""
    engine = registry.get(kind)
    seats = engine.seats.start
    options = {"target": 60} if kind in ("spite-and-malice", "diavoletto") else {}
    field, sign = _MATCH_SCORES[kind]
    scoring = SCORING[kind]

    def scores(state):
        raw = engine.view(state, None)[field]
        return [sign * float(raw[s] if isinstance(raw, list | tuple) else raw[str(s)]) for s in range(seats)]

    checked = 0
    for seed in range(3):
        chance = Chance(f"{seed + 70:064x}")
        pos, _ = begin(engine, seats, engine.normalize_options(options, seats), chance)
        rng = random.Random(seed)
        while engine.result(pos.state) is None and checked < 6:
            seat = min(engine.to_act(pos.state))
            before = scores(pos.state)
            new, events = apply_action(engine, pos, seat, rng.choice(engine.legal_actions(pos.state, seat)), chance)
            closing = [event for event in events if event.type in scoring.ends]
            if closing:
                gains = scoring.gains(closing[0].data)
                assert gains == pytest.approx([a - b for a, b in zip(scores(new.state), before, strict=True)])
                checked += 1
            pos = new
    assert checked


def test_muscio_worlds_respect_the_voids_the_play_has_shown():
    """The true hands always pass the check (it infers nothing false), raw samples often do not, and the
    search's own samples do."""
    from bots.policies.deals import muscio_check

    engine = registry.get("muscio")
    heuristic = make_policy("heuristic", engine)
    searcher = Search(engine, None, 1)
    chance = Chance("77" * 32)
    pos, _ = begin(engine, 3, engine.normalize_options({}, 3), chance)
    rng = random.Random(0)
    checked = raw_misses = 0
    for step in range(300):
        if engine.result(pos.state) is not None:
            break
        seat = min(engine.to_act(pos.state))
        view = engine.view(pos.state, seat)
        check = muscio_check(view)
        if check is not None:
            assert check(engine, pos.state)
            raw_misses += not check(engine, engine.sample_state(view, seat, random.Random(step)))
            assert check(engine, searcher._sample(view, seat, random.Random(step), check))
            checked += 1
        pos, _ = apply_action(engine, pos, seat, heuristic(view, seat, engine.legal_actions(pos.state, seat), rng),
                              chance)
    assert checked > 20 and raw_misses > 0


def test_machiavelli_is_searched_once_the_stock_is_empty_and_left_to_the_heuristic_before():
    from tests.engines.machiavelli.positions import position as machiavelli_position

    engine = registry.get("machiavelli")
    hands = ["7H 8H 9H 5S 5D 5C KD", "2C 3C 4C JD QD"]
    # with cards in the stock the heuristic holds (it cannot close: the KD fits nowhere) and is not searched
    pos = machiavelli_position(hands, table=["10S 10H 10D"], stock="AS")
    searcher = Search(engine, budget_ms=None, iterations=2)
    action = searcher.choose(engine.view(pos.state, 0), 0, engine.legal_actions(pos.state, 0), random.Random(0))
    assert action == {"type": "draw"} and searcher.rounds == 0
    # on an empty stock the lay-downs are searched, and the one that sheds all but the KD wins
    pos = machiavelli_position(hands, table=["10S 10H 10D"])
    action = searcher.choose(engine.view(pos.state, 0), 0, engine.legal_actions(pos.state, 0), random.Random(0))
    assert searcher.rounds == 2
    _, events = apply_action(engine, pos, 0, action, Chance("11" * 32))
    assert events[0].type == "meld" and sorted(events[0].data["added"]) == sorted(hands[0].split()[:-1])


def test_machiavelli_search_holds_back_where_the_first_lay_down_feeds_the_opponent():
    """The first turn on an empty stock of a two-player heuristic deal: with all 104 cards in the hands the
    view tells the opponent's hand exactly. The heuristic lays down what it can and the opponent closes on
    its cards; the search passes, the heuristic lays down, and the search's seat closes instead."""
    from bots.policies.heuristic import machiavelli as heuristic

    engine = registry.get("machiavelli")
    chance, rng = Chance(f"{1:064x}"), random.Random(1)
    searcher = Search(engine, budget_ms=None, iterations=2)

    def turn(policy, pos):
        seat = min(engine.to_act(pos.state))
        action = policy(engine.view(pos.state, seat), seat, engine.legal_actions(pos.state, seat), rng)
        return (*apply_action(engine, pos, seat, action, chance), action)

    pos, _ = begin(engine, 2, engine.normalize_options({"deals": 1}, 2), chance)
    while pos.state.stock or pos.state.opening:
        pos, _, _ = turn(heuristic.choose, pos)
    seat = min(engine.to_act(pos.state))
    laid, _, _ = turn(heuristic.choose, pos)
    _, events, _ = turn(heuristic.choose, laid)
    assert events[-1].type == "deal_end" and events[-1].data["closer"] == 1 - seat  # the heuristic's lay-down

    pos, _, action = turn(searcher.choose, pos)
    assert action == {"type": "pass"} and searcher.rounds == 2
    pos, _, _ = turn(heuristic.choose, pos)
    _, events, _ = turn(searcher.choose, pos)
    assert events[-1].type == "deal_end" and events[-1].data["closer"] == seat
