"""The pure engine layer: contract, runner, chance, cards, registry. No Django here."""

from games.engine.protocol import Action, Engine, Event, IllegalAction, InvalidOptions, Result

__all__ = ["Action", "Engine", "Event", "IllegalAction", "InvalidOptions", "Result"]
