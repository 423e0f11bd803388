"""Tarocchi Siciliani, the four-player game of Mineo (kind `tarocchi-mineo`).

Rules: docs/rules/tarocchi-mineo.md (implemented reading) and /work/shared/rules/tarocchi-mineo.md.
"""

from .engine import ENGINE, TarocchiMineo

__all__ = ["ENGINE", "TarocchiMineo"]
