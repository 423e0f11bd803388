"""Spite and Malice ("Milligan"), kind `spite-and-malice`: see docs/rules/spite-and-malice.md."""

from games.rules.patience import PatienceEngine
from games.rules.spite_and_malice.rules import RULES_VERSIONS, VARIANTS

ENGINE = PatienceEngine(VARIANTS, RULES_VERSIONS)
