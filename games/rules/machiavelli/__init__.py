"""Machiavelli: two-pack manipulation rummy for 2–6 players (rules: docs/rules/machiavelli.md)."""

from games.rules.machiavelli.engine import ENGINE

__all__ = ["ENGINE"]
