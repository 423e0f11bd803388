"""A test-only bot that holds a worker in the middle of a turn: the first turn each process plays takes the
seat's whole `budget_ms` (as a search bot would), after it writes "<pid>" to the file named by
SLOW_BOT_MARKER so that a test knows the turn has begun. It then moves at random.

Worker subprocesses load it with `celery -A tests.integration.slow_worker worker`; test code registers it
only for as long as a test needs it (`monkeypatch.setitem(POLICIES, "slow", SLOW)`).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Mapping
from typing import Any

from bots.policies import Bot, Choose, random_choice
from games.engine.base import Option
from games.engine.protocol import JSON, Action, Engine

_first_turn_played = False


def _make(engine: Engine, options: Mapping[str, Any]) -> Choose:
    def choose(view: JSON, seat: int, legal_actions: list[Action], rng: random.Random) -> Action:
        global _first_turn_played
        if not _first_turn_played:
            _first_turn_played = True
            if marker := os.environ.get("SLOW_BOT_MARKER"):
                with open(marker, "a") as file:
                    file.write(f"{os.getpid()}\n")
            time.sleep(options.get("budget_ms", 0) / 1000)
        return random_choice(view, seat, legal_actions, rng)

    return choose


SLOW = Bot("slow", "test only: its first turn in a process takes its whole budget_ms, then random", _make,
           options={"budget_ms": Option(0, int, minimum=0, maximum=60_000, help="the first turn's thinking time")})
