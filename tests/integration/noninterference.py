"""Helpers for the noninterference tests: what one viewer can read of a game, and twin deals.

Two games are *twins for a viewer V* when their deals differ only by the relabelling of two card faces X and Y
that V never read. If the rules took both games the same way (the true logs are equal up to that relabelling),
nothing V can read may differ between them, except ids and times: any difference tells V something about where
X and Y lie, which is a leak.

The deals are fixed through `decks`: game A is created with the outcome of every shuffle its course needs (found
first by a pure simulation on the seed), game B with the same lists relabelled, so both games record the same
public shuffle facts (`source: decks`) and B's reshuffles relabel A's exactly.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import async_to_sync
from django.test import AsyncClient

from games import services
from games.engine import registry
from games.engine.chance import Chance
from games.engine.runner import Position, apply_action, begin
from games.models import Event, Game, IdempotencyRecord

API = "/api/v1"
TIME_KEYS = frozenset({"recorded_at", "created_at", "updated_at", "deadline", "deadlines", "started_at",
                       "finished_at"})
#: Keys whose integer values are tournament entrant ids (rows of each tournament, so they differ between twins).
ENTRANT_KEYS = frozenset({"entrant", "entrants", "advanced"})


# -- pure simulation ---------------------------------------------------------------------------------
@dataclass
class Course:
    """A game played by the engine alone: the moves, the true log, and the outcome of every shuffle."""

    actions: list[tuple[int, dict]]
    log: list[tuple]
    shuffles: list[list[str]]
    finished: bool


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value))


def simulate(kind: str, seats: int, options: dict, seed: str, decks: list[list[str]], *,
             actions: list[tuple[int, dict]] | None = None, moves: int = 0, rng: random.Random | None = None,
             until_seat: int | None = None, extra: int = 0, finish: bool = False) -> Course:
    """Play `actions` (a replay: IllegalAction if one is refused), or else `moves` random legal moves (the
    first seat to act chooses), then up to `extra` more until `until_seat` is to act; with `finish`, on to
    the end. A random game stops before a move that would end it, unless `finish`."""
    engine = registry.get(kind)
    options = engine.normalize_options(dict(options), seats)
    position, events = begin(engine, seats, options, Chance(seed, decks), Position(None, 1, 0))
    log = [_true(e) for e in events]
    played: list[tuple[int, dict]] = []

    def step(seat: int, action: dict) -> Position:
        after, new = apply_action(engine, position, seat, action, Chance(seed, decks, position.shuffles))
        log.extend(_true(e) for e in new)
        played.append((seat, action))
        return after

    if actions is not None:
        for seat, action in actions:
            position = step(seat, action)
    else:
        budget = 5000 if finish else moves + extra
        while len(played) < budget and engine.result(position.state) is None:
            to_act = sorted(engine.to_act(position.state))
            if not finish and len(played) >= moves and (until_seat is None or until_seat in to_act):
                break
            seat = to_act[0]
            action = _jsonable(rng.choice(engine.legal_actions(position.state, seat)))
            after, new = apply_action(engine, position, seat, action, Chance(seed, decks, position.shuffles))
            if engine.result(after.state) is not None and not finish:
                break
            log.extend(_true(e) for e in new)
            played.append((seat, action))
            position = after
    shuffles = [e[2]["cards"] for e in log if e[0] == "shuffle"]
    return Course(played, log, shuffles, engine.result(position.state) is not None)


def _true(event) -> tuple:
    visible = sorted(event.visible_to) if event.visible_to is not None else None
    return _jsonable([event.type, event.actor, event.data, event.public, visible])


def relabel(value: Any, x: str, y: str) -> Any:
    """`value` with the strings (and dict keys) `x` and `y` exchanged."""
    swap = {x: y, y: x}
    if isinstance(value, str):
        return swap.get(value, value)
    if isinstance(value, list | tuple):
        return [relabel(v, x, y) for v in value]
    if isinstance(value, dict):
        return {swap.get(k, k): relabel(v, x, y) for k, v in value.items()}
    return value


def canonical(value: Any) -> Any:
    """Lists of plain strings (hands, piles) compared as multisets: an engine may sort a hand by card."""
    if isinstance(value, list):
        items = [canonical(v) for v in value]
        return sorted(items) if all(isinstance(v, str) for v in items) else items
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    return value


def same_course(a: Course, b: Course, x: str, y: str) -> bool:
    """B took A's course with X and Y exchanged: the rules did not tell the two deals apart."""
    return canonical(relabel(a.log, x, y)) == canonical(b.log) and a.finished == b.finished


def strings(value: Any) -> set[str]:
    """Every JSON string value and dict key in `value`: the card codes a reader was shown."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(k for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def twin_pairs(shuffles: list[list[str]], seen: set[str], rng: random.Random) -> list[tuple[str, str]]:
    """Pairs of different faces, both never read by the viewer, in a seeded random order."""
    faces = sorted({card for deck in shuffles for card in deck} - seen)
    pairs = list(itertools.combinations(faces, 2))
    rng.shuffle(pairs)
    return pairs


# -- the API, as one viewer ------------------------------------------------------------------------------
@dataclass
class Table:
    """One game through the API: its id, the players' clients by seat, and the answers to each seat's moves."""

    game_id: str
    clients: dict[int, Any]
    posted: dict[int, list] = field(default_factory=dict)  # seat -> its own moves' answers


def create(kind: str, players: list, options: dict, seed: str, decks: list[list[str]], *,
           sealed: bool = False) -> Game:
    return services.game_open(kind=kind, seats=[{"player": p.id} for p in players],
                                options=options, seed=seed, decks=decks, sealed=sealed)


def play(table: Table, actions: Iterable[tuple[int, dict]]) -> None:
    """Post each action through its seat's own authenticated client, keeping each seat's answers."""
    for seat, action in actions:
        version = Game.objects.values_list("version", flat=True).get(pk=table.game_id)
        body = {"action": action, "expected_version": version, "seat": seat}
        response = table.clients[seat].post(f"{API}/games/{table.game_id}/actions/", body, format="json")
        assert response.status_code == 201, (action, response.json())
        table.posted.setdefault(seat, []).append(response.json())


def true_log(game_id: str) -> list:
    rows = Event.objects.filter(game_id=game_id).order_by("seq").values_list(
        "type", "actor", "data", "public", "visible_to")
    return [list(row) for row in rows if not row[0].startswith("game.")]


def answer(response) -> tuple[int, Any]:
    return response.status_code, response.json()


def read_stream(game_id: str, token: str | None, count: int, seat: int | None = None) -> list[dict]:
    """The first `count` messages of the game's SSE stream (the async view, in process), as dicts
    {status, event, id, data}; the `retry:` advice and heartbeats are left out. The reader then hangs up as a
    server sees it: the task reading the stream is cancelled."""

    async def go() -> list[dict]:
        headers = {"Authorization": f"Token {token}"} if token else {}
        query = {"seat": seat} if seat is not None else {}
        response = await AsyncClient().get(f"{API}/games/{game_id}/stream/", query, headers=headers)
        if not response.streaming:
            return [{"status": response.status_code, "body": json.loads(response.content or b"null")}]
        messages: list[dict] = []
        enough = asyncio.Event()

        async def consume() -> None:
            async for chunk in response.streaming_content:
                text = chunk.decode() if isinstance(chunk, bytes) else chunk
                messages.extend(m for m in map(_sse_message, text.split("\n\n")) if m is not None)
                if len(messages) >= count:
                    enough.set()

        reader, waiter = asyncio.ensure_future(consume()), asyncio.ensure_future(enough.wait())
        await asyncio.wait([reader, waiter], timeout=10, return_when=asyncio.FIRST_COMPLETED)
        for task in (reader, waiter):
            task.cancel()
        await asyncio.gather(reader, waiter, return_exceptions=True)
        return [{"status": response.status_code, **m} for m in messages]

    return async_to_sync(go)()


def _sse_message(block: str) -> dict | None:
    message: dict[str, Any] = {"event": "message"}
    for line in block.splitlines():
        name, _, value = line.partition(":")
        if name in ("event", "id"):
            message[name] = value.strip()
        elif name == "data":
            message["data"] = json.loads(value)
    return message if "data" in message else None


def observe(client, token: str | None, game_id: str, list_players: list[int]) -> dict[str, Any]:
    """Everything the caller can read about the game (GET only): summary, state, events, the long poll, the
    stream, the replay and every step of it, export, the same through each seat's eyes (`?seat=`), and the game
    lists of `list_players`."""
    base = f"{API}/games/{game_id}"
    seen: dict[str, Any] = {"summary": answer(client.get(f"{base}/")), "state": answer(client.get(f"{base}/state/"))}
    seen["events"] = answer(client.get(f"{base}/events/", {"after": 0}))
    version = Game.objects.values_list("version", flat=True).get(pk=game_id)
    after = max(0, version - 3)  # events follow: the poll answers at once
    seen["long_poll"] = answer(client.get(f"{base}/events/", {"after": after, "wait": 1}))
    seen["stream"] = read_stream(game_id, token, version + 1)  # every event, then the head
    seen["replay"] = answer(client.get(f"{base}/replay/"))
    seen["steps"] = [answer(client.get(f"{base}/replay/{n}/")) for n in range(1, version + 1)]
    seen["export"] = answer(client.get(f"{base}/export/"))
    seen["eyes"] = {}  # asking to look through each seat's eyes (only one's own while the game runs)
    for seat in range(Game.objects.values_list("seat_count", flat=True).get(pk=game_id)):
        seen["eyes"][seat] = {
            "state": answer(client.get(f"{base}/state/", {"seat": seat})),
            "events": answer(client.get(f"{base}/events/", {"after": 0, "seat": seat})),
            "step": answer(client.get(f"{base}/replay/{version}/", {"seat": seat})),
            "stream": read_stream(game_id, token, version + 1, seat=seat),
        }
    seen["lists"] = {}
    for player in list_players:
        status, body = answer(client.get(f"{API}/games/", {"player": player, "limit": 100}))
        mine = [g for g in body["results"] if g["id"] == game_id] if status == 200 else body
        seen["lists"][player] = (status, mine)
    return seen


# -- probes: illegal actions naming hidden cards ---------------------------------------------------------
def probes(kind: str, templates: list[dict], cards: tuple[str, str], table: list | None = None,
           per_card: int = 6) -> list[dict]:
    """Actions naming each of `cards`: the caller's own legal templates (one per shape) with the card put in
    their `card`/`cards`/`table` field, and one bare action per type of the kind that takes a card (a `table`
    field gets the `table` in view with a meld of the card added)."""
    shapes: dict[tuple, dict] = {}
    for template in templates:
        shape = (template.get("type"), tuple(sorted(template)), template.get("source"))
        shapes.setdefault(shape, template)
    out: list[dict] = []
    for card in cards:
        made = [p for p in (_substitute(t, card) for t in shapes.values()) if p is not None][:per_card]
        for type_, schema in registry.get(kind).action_schemas.items():
            props = schema.get("properties", {})
            if "card" in props:
                made.append({"type": type_, "card": card})
            if "cards" in props:
                made.append({"type": type_, "cards": [card]})
            if "table" in props:
                made.append({"type": type_, "table": [*(table or []), [card]]})
        out.extend(made)
    return out


def _substitute(template: dict, card: str) -> dict | None:
    action = json.loads(json.dumps(template))
    if "card" in action:
        action["card"] = card
    elif action.get("cards"):
        action["cards"][0] = card
    elif action.get("table"):
        action["table"].append([card])  # a meld made of the hidden card
    else:
        return None
    return action


def post_probes(client, game_id: str, seat: int, actions: list[dict]) -> list[tuple[int, Any]]:
    """Post each probe; asserts none of them wrote anything."""
    before = (Event.objects.filter(game_id=game_id).count(), IdempotencyRecord.objects.count(),
              Game.objects.values_list("version", "updated_at").get(pk=game_id))
    version = before[2][0]
    answers = [answer(client.post(f"{API}/games/{game_id}/actions/",
                                  {"action": action, "expected_version": version, "seat": seat}, format="json"))
               for action in actions]
    after = (Event.objects.filter(game_id=game_id).count(), IdempotencyRecord.objects.count(),
             Game.objects.values_list("version", "updated_at").get(pk=game_id))
    assert after == before, "an illegal probe wrote something"
    assert all(status in (403, 409, 422) for status, _ in answers), answers
    return answers


# -- normalising what differs anyway ---------------------------------------------------------------------
def normalise(value: Any, names: dict[str, str], entrants: dict[int, str] | None = None,
              key: str | None = None) -> Any:
    """`value` without times, with the strings in `names` (game and tournament ids) and the entrant ids in
    `entrants` (under the keys that hold them) replaced by stable names."""
    entrants = entrants or {}
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in TIME_KEYS:
                continue
            if k == "id" and isinstance(v, int) and "number" in value and "name" in value:  # an entrant row
                out[k] = entrants.get(v, v)
            else:
                out[k] = normalise(v, names, entrants, k)
        return out
    if isinstance(value, list | tuple):
        return [normalise(v, names, entrants, key) for v in value]
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, int) and not isinstance(value, bool) and key in ENTRANT_KEYS:
        return entrants.get(value, value)
    return value


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as paths (the first few), for a readable failure."""
    if type(a) is not type(b):
        return [f"{path}: {a!r} != {b!r}"]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                out.append(f"{path}/{k}: only in {'A' if k in a else 'B'}")
            else:
                out.extend(differences(a[k], b[k], f"{path}/{k}"))
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items != {len(b)}"] + differences(a[: len(b)], b[: len(a)], path)
        return [d for i, (p, q) in enumerate(zip(a, b, strict=True)) for d in differences(p, q, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]
