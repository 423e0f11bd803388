"""Engine cost in CPU instructions: the random playouts of `engine_speed.py`, counted by callgrind beside
RLCard's UNO in the same run, so the ratio does not depend on what else the machine is doing.

    pip install -e ".[bench]" && python bench/engine_instructions.py [--games 20] [--kinds machiavelli ...]

Each measurement runs a child Python under `valgrind --tool=callgrind` twice, playing `warm` games and then
`warm + games` games; the difference, divided by the steps of the extra games, is the instructions per step
(imports, start-up and cache warm-up cancel out); string hashing is fixed (`PYTHONHASHSEED=0`) so that runs
compare exactly. Instructions are not time (UNO's numpy code does more per instruction than ours), so
`engine_speed.py` stays the measure of the target; this one is for comparing two versions of an engine.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine_speed import cases  # noqa: E402  (bench/ is on the path when a script here runs)

_COLLECTED = re.compile(r"Collected : (\d+)")


def _child(kind: str, seats: int, games: int, out: str) -> None:
    """Play the games (UNO when `kind` is "uno") and write the steps played to `out`."""
    from engine_speed import play_ours, play_uno

    steps = play_uno(games) if kind == "uno" else play_ours(kind, seats, games)
    Path(out).write_text(str(steps))


def _count(kind: str, seats: int, games: int) -> tuple[int, int]:
    """(instructions, steps) of a child process playing `games` games under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        steps_file = str(Path(tmp) / "steps")
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/callgrind.out",
                   sys.executable, __file__, "--child", kind, str(seats), str(games), steps_file]
        # A fixed string hash, so that two runs (two versions of an engine) differ only by the code.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
        found = _COLLECTED.search(done.stderr)
        if found is None:
            sys.exit(f"callgrind printed no count:\n{done.stderr[-2000:]}")
        return int(found.group(1)), int(Path(steps_file).read_text())


def per_step(kind: str, seats: int, warm: int, games: int) -> float:
    base, base_steps = _count(kind, seats, warm)
    total, total_steps = _count(kind, seats, warm + games)
    return (total - base) / (total_steps - base_steps)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games counted per case (after the warm-up)")
    parser.add_argument("--warm", type=int, default=3, help="games played first, whose cost is subtracted")
    parser.add_argument("--kinds", nargs="*", default=None)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is missing (apt-get install valgrind)")
    uno = per_step("uno", 4, args.warm, args.games * 10)
    print(f"RLCard uno: {uno:,.0f} instructions/step ({args.games * 10} games)")
    print(f"{'game':<20}{'seats':>6}{'instr/step':>12}{'uno / ours':>12}")
    for kind, seats in cases(args.kinds):
        ours = per_step(kind, seats, args.warm, args.games)
        print(f"{kind:<20}{seats:>6}{ours:>12,.0f}{uno / ours:>12.2f}", flush=True)


if __name__ == "__main__":
    main()
