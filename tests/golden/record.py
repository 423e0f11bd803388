"""Record the golden logs again: `python -m tests.golden.record [--kind KIND] [--games N]`.

Run it only when a change to what a game does is intended, and say in the commit why the logs changed.
Recording a rules version that the engine still folds must give the same files: the replay test holds them.
"""

from __future__ import annotations

import argparse
import os
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", action="append", help="only this kind (repeatable)")
    parser.add_argument("--version", type=int, action="append", help="only this rules version (repeatable)")
    parser.add_argument("--games", type=int, default=None, help="games per file (default: logs.GAMES)")
    args = parser.parse_args()
    django.setup()
    from tests.golden import logs

    total = 0
    for kind, version, seats in logs.configurations():
        if (args.kind and kind not in args.kind) or (args.version and version not in args.version):
            continue
        engine = logs.engine_versions(kind)[version]
        started = time.perf_counter()
        games = [logs.play_game(engine, kind, version, seats, number) for number in range(args.games or logs.GAMES)]
        path = logs.fixture_path(kind, version, seats)
        logs.save(path, {"format": logs.FORMAT, "kind": kind, "rules_version": version, "seats": seats,
                         "games": games})
        size = path.stat().st_size
        total += size
        steps = sum(len(game["steps"]) for game in games)
        print(f"{path.relative_to(logs.ROOT)}: {len(games)} games, {steps} steps, {size / 1000:.0f} kB, "
              f"{time.perf_counter() - started:.1f} s")
    print(f"written: {total / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
