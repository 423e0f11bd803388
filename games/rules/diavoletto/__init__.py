"""Diavoletto (also Gigio, Tredici), kind `diavoletto`: see docs/rules/diavoletto.md."""

from games.rules.diavoletto.rules import VARIANT
from games.rules.patience import PatienceEngine

ENGINE = PatienceEngine({1: VARIANT})
