"""The write path publishes "head moved" through `games.hooks`; bots, the turn clock, ratings and tournaments
subscribe from their own apps. `games.services` imports none of them (the layers contract checks it too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games import hooks, outbox
from games.models import Job
from tests.conftest import create_game

ROOT = Path(__file__).resolve().parents[2]


def test_each_app_subscribes_once_in_order_bot_turn_first():
    assert hooks.subscribers() == [
        "bots.subscribers.bot_turn",
        "games.clocks.clock_check",
        "tournaments.subscribers.rate_finished_game",
        "tournaments.subscribers.advance_tournament_of_game",
    ]
    from bots import subscribers

    hooks.subscribe(subscribers.bot_turn, order=0)  # ready() run again (tests, reloads): no second call
    assert hooks.subscribers().count("bots.subscribers.bot_turn") == 1


@pytest.mark.parametrize("path", ["games/services.py", "games/selectors.py", "games/models.py", "games/hooks.py"])
def test_the_write_path_imports_no_bot_clock_or_tournament_code(path):
    tree = ast.parse((ROOT / path).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not {name for name in imported if name.startswith(("bots.tasks", "bots.services", "tournaments",
                                                              "games.clocks", "games.tasks"))}
    nested = [node.lineno for fn in ast.walk(tree) if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
              for node in ast.walk(fn) if isinstance(node, ast.Import | ast.ImportFrom)]
    assert nested == []


def test_a_move_records_what_the_subscribers_return(ann, monkeypatch):
    seen: list[hooks.HeadMoved] = []

    def spy(moved: hooks.HeadMoved) -> list[outbox.Work]:
        seen.append(moved)
        return [outbox.Work("games.tasks.sweep_jobs", [], f"spy:{moved.game.id}:{moved.game.version}")]

    monkeypatch.setattr(hooks, "_subscriptions", [hooks._Subscription(50, "spy", spy)])
    game = create_game(ann, [{"player": ann.id}, {"bot": "random"}], seed="6b" * 32)
    assert seen and seen[0].started and seen[0].game.version == game["version"]
    assert [s.index for s in seen[0].seats] == [0, 1] and seen[0].tail
    assert Job.objects.filter(key=f"spy:{game['id']}:{game['version']}").exists()
    # only the spy's jobs: with the apps' subscribers gone, the write path queues nothing by itself
    assert set(Job.objects.values_list("task", flat=True)) == {"games.tasks.sweep_jobs"}


def test_old_outbox_jobs_of_the_moved_tournament_tasks_still_resolve():
    from tournaments import tasks

    assert outbox._task("games.tournaments.tasks.rate_game") is tasks.rate_game
    assert outbox._task("games.tournaments.tasks.advance_tournament") is tasks.advance_tournament
    assert outbox._task("tournaments.tasks.rate_game") is tasks.rate_game
