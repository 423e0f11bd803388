"""Muscio (Gattorna, Liguria): a Rams-family five-card trick game for 3 to 6 players, as a pure engine.

See `docs/rules/muscio.md` for the game as implemented and `/work/shared/rules/muscio.md` for the rules.
"""

from games.rules.muscio.engine import MuscioEngine

ENGINE = MuscioEngine()

__all__ = ["ENGINE", "MuscioEngine"]
