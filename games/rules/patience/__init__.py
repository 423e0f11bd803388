"""Competitive patience for two: the table, moves, draws, recycling, scoring and matches shared by
Spite and Malice and Diavoletto. A game package describes its own rules as a `Variant` and gets an
engine from `PatienceEngine(variant)`.
"""

from games.rules.patience.engine import PatienceEngine
from games.rules.patience.variant import Move, Obligation, Variant, in_reach, natural_cards, reaches

__all__ = ["Move", "Obligation", "PatienceEngine", "Variant", "in_reach", "natural_cards", "reaches"]
