"""The read caches (games.caches): bounded, least recently used out first, and a game's newest position kept
in step with evictions, so a fold never starts from a position the cache no longer holds."""

from games.caches import LruCache, PositionCache, read_caches


def test_the_least_recently_used_entry_goes_first():
    cache = LruCache(size=2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "b" is now the least recently used
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c"), len(cache)) == (1, None, 3, 2)


def test_a_games_newest_position_is_a_start_only_within_reach_and_while_cached():
    cache = PositionCache(size=3)
    cache.put(("g", 10), "at 10")
    cache.put(("g", 12), "at 12")
    cache.put(("g", 11), "at 11")  # an older version does not replace the newest
    assert cache.newest_within("g", 40, reach=50) == "at 12"
    assert cache.newest_within("g", 100, reach=50) is None  # too far behind: a snapshot is the better start
    assert cache.newest_within("g", 11, reach=50) is None   # ahead of the version asked for
    cache.put(("h", 1), "other game")
    cache.put(("h", 2), "other game")  # pushes out ("g", 10), then ("g", 12)
    assert cache.get(("g", 12)) is None
    assert cache.newest_within("g", 40, reach=50) is None


def test_the_app_holds_one_set_of_caches_and_clear_empties_them():
    caches = read_caches()
    assert read_caches() is caches
    caches.heads.put(("g", 1), "head")
    caches.positions.put(("g", 1), "position")
    caches.clear()
    assert (len(caches.heads), len(caches.positions), len(caches.bot_games)) == (0, 0, 0)
