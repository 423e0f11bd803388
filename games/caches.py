"""The per-process read caches, as explicit objects that the games app holds (`read_caches()`), not state
hidden in modules: one place says what is kept, and a test or a worker can clear all of it.

Every entry is keyed by a game and a version, or by what a writer read itself, and says what was true of the
game at that version, so it never goes stale. What is current is always read from the game's head row (or
checked by the next write, which is conditional on the version it started from), never from a cache.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps

#: Entries per cache: a few hundred games in play per process.
CACHE_SIZE = 512


class LruCache:
    """At most `size` entries; the least recently used goes first."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable) -> Any | None:
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, key: Hashable, value: Any) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._evicted(*self._entries.popitem(last=False))

    def _evicted(self, key: Hashable, value: Any) -> None:
        """Called for each entry pushed out by a newer one."""

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class PositionCache(LruCache):
    """Folded positions by (game id, version), and each game's newest cached version: a start for the next
    fold of that game (a worker's own last move, when someone moved since)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        super().__init__(size)
        self._newest: dict[str, int] = {}

    def put(self, key: tuple[str, int], value: Any) -> None:
        game_id, version = key
        if version >= self._newest.get(game_id, -1):
            self._newest[game_id] = version
        super().put(key, value)

    def _evicted(self, key: tuple[str, int], value: Any) -> None:
        game_id, version = key
        if self._newest.get(game_id) == version:
            del self._newest[game_id]

    def newest_within(self, game_id: str, version: int, reach: int) -> Any | None:
        """The game's newest cached position, if it is at most `reach` events before `version`."""
        newest = self._newest.get(game_id)
        if newest is None or not version - reach <= newest <= version:
            return None
        return self._entries.get((game_id, newest))

    def clear(self) -> None:
        super().clear()
        self._newest.clear()


@dataclass
class ReadCaches:
    """What one process keeps between requests and tasks."""

    positions: PositionCache = field(default_factory=PositionCache)  # (game, version) -> Position
    heads: LruCache = field(default_factory=LruCache)  # (game, version) -> the game's row and seats then
    bot_games: LruCache = field(default_factory=LruCache)  # game -> its row and seats as a worker last read them

    def clear(self) -> None:
        for cache in (self.positions, self.heads, self.bot_games):
            cache.clear()


def read_caches() -> ReadCaches:
    """This process's caches, held by the games app (`GamesConfig.caches`)."""
    return apps.get_app_config("games").caches
