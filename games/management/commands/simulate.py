"""`python manage.py simulate <kind> --games N`: bot-vs-bot games in process, with a summary."""

import random
import time
from collections import Counter

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from bots.policies import POLICIES, make_policy, unknown_bot_reason
from games.engine import registry
from games.engine.chance import Chance
from games.engine.runner import apply_action, begin


class Command(BaseCommand):
    help = "Play bot-vs-bot games of a kind in process and print results, games/s and actions/s."

    def add_arguments(self, parser):
        parser.add_argument("kind", choices=registry.kinds())
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seats", type=int, default=None)
        parser.add_argument("--bot", action="append", choices=sorted(POLICIES),
                            help="policy per seat (repeat; the last one fills the remaining seats)")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args, kind: str, games: int, seats: int | None, bot: list | None, seed: int, **options):
        engine = registry.get(kind)
        seats = seats or engine.seats.start
        if seats not in engine.seats:
            raise CommandError(f"{kind} takes {engine.seats.start}-{engine.seats.stop - 1} seats")
        names = (bot or ["random"]) + [(bot or ["random"])[-1]] * seats
        for name in set(names[:seats]):
            if reason := unknown_bot_reason(name, kind):
                raise CommandError(reason)
        policies = [make_policy(name, engine) for name in names[:seats]]
        options = engine.normalize_options({}, seats)
        wins, reasons, actions = Counter(), Counter(), 0
        started = time.perf_counter()
        for number in tqdm(range(games), desc=kind, unit="game"):
            rng = random.Random(seed + number)
            chance = Chance(f"{seed + number:064x}")
            position, _ = begin(engine, seats, options, chance)
            while (result := engine.result(position.state)) is None:
                seat = min(engine.to_act(position.state))
                view = engine.view(position.state, seat)
                action = policies[seat](view, seat, engine.legal_actions(position.state, seat), rng)
                position, _ = apply_action(engine, position, seat, action, chance)
                actions += 1
            reasons[result["reason"]] += 1
            for winner in result["winners"] or ["draw"]:
                wins[winner] += 1
        elapsed = time.perf_counter() - started
        self.stdout.write(f"{games} games of {kind}, {seats} seats, bots {names[:seats]}")
        for key, count in sorted(wins.items(), key=str):
            label = "draws" if key == "draw" else f"seat {key} wins"
            self.stdout.write(f"  {label}: {count}")
        self.stdout.write(f"  endings: {dict(reasons)}")
        self.stdout.write(f"  {games / elapsed:.1f} games/s, {actions / elapsed:.0f} actions/s")
