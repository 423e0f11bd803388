"""Wake-ups for live streams: "channel X moved to N" published after commit, heard by async listeners.

A message carries no game data, only a channel (`game:<id>`, `player:<id>`) and a number (the new
version or notification seq); a listener that wakes re-reads the log, which stays the only truth. So a
lost or doubled message costs at most one extra read, and reconnecting to the bus wakes every listener.

The bus is chosen by `settings.STREAM_BUS`:
- `redis`: PUBLISH on `tavolo:<redis db>:<channel>`; each event loop keeps one PSUBSCRIBE connection for all its
  listeners (many web processes, workers elsewhere);
- `postgres`: NOTIFY/LISTEN on one channel, the payload being `<channel> <n>`;
- `local`: in-process only (the embedded default: the worker thread and the web loop share a process).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import weakref
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlparse

from django.conf import settings

log = logging.getLogger(__name__)

PG_CHANNEL = "tavolo"
READY_TIMEOUT = 5.0


class BusUnavailable(Exception):
    """The pub/sub server cannot be reached: streams cannot promise to wake, so they refuse to start."""


def game_channel(game_id: Any) -> str:
    return f"game:{game_id}"


def player_channel(player_id: Any) -> str:
    return f"player:{player_id}"


# -- publishing (sync: called from on_commit in web threads and workers) -------------------------------
_redis_client = None
_redis_lock = threading.Lock()


def _redis():
    global _redis_client
    with _redis_lock:
        if _redis_client is None:
            import redis

            _redis_client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
        return _redis_client


def _prefix() -> str:
    """Redis pub/sub ignores database numbers: name the channels after ours so deployments sharing a server
    (or CI beside a developer's server) do not wake each other's streams."""
    return f"tavolo:{urlparse(settings.REDIS_URL).path.strip('/') or '0'}:"


def publish(channel: str, value: int) -> None:
    """Tell every listener of `channel` that it moved to `value`. Never raises: a failed wake-up must not
    undo or fail the move that caused it (clients still catch up on their next read)."""
    try:
        bus = settings.STREAM_BUS
        if bus == "redis":
            _redis().publish(_prefix() + channel, str(value))
        elif bus == "postgres":
            from django.db import connection

            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_notify(%s, %s)", [PG_CHANNEL, f"{channel} {value}"])
        else:
            with _hubs_lock:
                hubs = list(_hubs.values())
            for hub in hubs:
                hub.deliver_threadsafe(channel, value)
    except Exception:  # noqa: BLE001 - logged; see the docstring
        log.exception("could not publish %s=%s on the %s bus", channel, value, settings.STREAM_BUS)


# -- listening (async) ------------------------------------------------------------------------------------
class Listener:
    """One stream's subscription: `wait` returns as soon as its channel was published since the last wait."""

    def __init__(self, channel: str) -> None:
        self.channel = channel
        self.latest = 0  # the highest value published since subscribing
        self.resync = False  # the bus reconnected: messages may have been lost, read afresh
        self._event = asyncio.Event()

    def wake(self, value: int | None) -> None:
        if value is None:
            self.resync = True
        else:
            self.latest = max(self.latest, value)
        self._event.set()

    async def wait(self, timeout: float) -> bool:
        """True if woken, False after `timeout` seconds of silence."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return False
        self._event.clear()
        return True


class _Hub:
    """The listeners of one event loop and, for redis/postgres, the one connection that feeds them."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.listeners: dict[str, set[Listener]] = {}
        self.ready = asyncio.Event()
        self.task: asyncio.Task | None = None

    def deliver(self, channel: str, value: int) -> None:
        for listener in list(self.listeners.get(channel, ())):
            listener.wake(value)

    def deliver_threadsafe(self, channel: str, value: int) -> None:
        try:
            self.loop.call_soon_threadsafe(self.deliver, channel, value)
        except RuntimeError:  # the loop is closed
            with _hubs_lock:
                _hubs.pop(self.loop, None)

    def wake_all(self) -> None:
        for listeners in list(self.listeners.values()):
            for listener in list(listeners):
                listener.wake(None)

    async def start(self) -> None:
        bus = settings.STREAM_BUS
        if bus == "local":
            self.ready.set()
            return
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._run_redis() if bus == "redis" else self._run_postgres())
        try:
            await asyncio.wait_for(self.ready.wait(), READY_TIMEOUT)
        except TimeoutError:
            raise BusUnavailable(f"the {bus} bus is not reachable") from None

    def _connected(self) -> None:
        self.ready.set()
        self.wake_all()  # anything published while we were away is re-read from the log

    async def _run_redis(self) -> None:
        import redis.asyncio as aioredis

        prefix = _prefix()
        while True:
            client = aioredis.Redis.from_url(settings.REDIS_URL)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(prefix + "*")
                    async for message in pubsub.listen():
                        if message["type"] == "psubscribe":
                            self._connected()
                        elif message["type"] == "pmessage":
                            channel = message["channel"].decode()[len(prefix):]
                            self.deliver(channel, int(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - reconnect after any connection failure
                log.warning("redis bus: %s; reconnecting", error)
            finally:
                self.ready.clear()
                await client.aclose()
            await asyncio.sleep(0.5)

    async def _run_postgres(self) -> None:
        import psycopg
        from django.db import connections

        db = connections["default"].settings_dict
        conninfo = psycopg.conninfo.make_conninfo(
            dbname=db["NAME"], user=db.get("USER") or None, password=db.get("PASSWORD") or None,
            host=db.get("HOST") or None, port=str(db["PORT"]) if db.get("PORT") else None)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {PG_CHANNEL}")
                    self._connected()
                    async for notify in conn.notifies():
                        channel, _, value = notify.payload.rpartition(" ")
                        self.deliver(channel, int(value))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - reconnect after any connection failure
                log.warning("postgres bus: %s; reconnecting", error)
            finally:
                self.ready.clear()
            await asyncio.sleep(0.5)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Hub] = weakref.WeakKeyDictionary()
_hubs_lock = threading.Lock()


def _hub() -> _Hub:
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        hub = _hubs.get(loop)
        if hub is None:
            hub = _hubs[loop] = _Hub(loop)
    return hub


@contextlib.asynccontextmanager
async def listen(channel: str) -> AsyncIterator[Listener]:
    """Subscribe to `channel` for the block. Subscribe first, then read the log, then wait: a publish that
    lands between the read and the wait still wakes the listener. Raises BusUnavailable."""
    hub = _hub()
    await hub.start()
    listener = Listener(channel)
    hub.listeners.setdefault(channel, set()).add(listener)
    try:
        yield listener
    finally:
        listeners = hub.listeners.get(channel)
        if listeners is not None:
            listeners.discard(listener)
            if not listeners:
                del hub.listeners[channel]
