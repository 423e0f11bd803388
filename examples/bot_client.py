"""A third-party bot: plays a Tavolo game through the public HTTP API only (standard library, no SDK).

    python examples/bot_client.py --kind spite-and-malice --against random         # register, create, play
    python examples/bot_client.py --token KEY --game GAME_ID                        # play your seat of a game

The loop every client needs: read the state (the caller's view, `version`, `to_act`, `legal_actions`), wait
with a long poll while others move, pick one of the legal actions and POST it with `expected_version` and
an `Idempotency-Key`. A 409 means the game moved meanwhile (or was finished): reload and decide again. A
network failure is retried with the same key, so the move is recorded once at most. Replace `choose` with
your strategy.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any

RETRY_STATUS = {429, 502, 503, 504}
DEFAULT_SERVER = "http://127.0.0.1:8000/api/v1"


class ClientError(Exception):
    """Whatever stops the client; `main` prints it as one line."""


class ApiError(ClientError):
    def __init__(self, status: int, body: dict) -> None:
        super().__init__(f"{status} {body.get('code') or 'error'}: {body.get('detail')}")
        self.status, self.code = status, body.get("code")


class Client:
    def __init__(self, base: str, token: str | None = None) -> None:
        self.base, self.token = base.rstrip("/"), token

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
             timeout: float = 75) -> Any:
        """One request, retried (same body, same headers) on network failures and busy answers."""
        data = json.dumps(body).encode() if body is not None else None
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        if self.token:
            all_headers["Authorization"] = f"Token {self.token}"
        for attempt in range(6):
            try:
                request = urllib.request.Request(self.base + path, data=data, headers=all_headers, method=method)
                with urllib.request.urlopen(request, timeout=timeout) as response:
                    return self._json(response.read())
            except urllib.error.HTTPError as error:
                if error.code not in RETRY_STATUS or attempt == 5:
                    raise self._refusal(method, path, error) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
                if attempt == 5:
                    reason = getattr(error, "reason", None) or error
                    raise ClientError(f"cannot reach the server at {self.base}: {reason}") from None
            time.sleep(0.2 * 2 ** attempt)
        raise AssertionError("unreachable")

    def _json(self, raw: bytes) -> Any:
        try:
            return json.loads(raw or b"null")
        except ValueError:
            raise ClientError(f"{self.base} did not answer with JSON: is --server the API root, like "
                              f"{DEFAULT_SERVER}?") from None

    def _refusal(self, method: str, path: str, error: urllib.error.HTTPError) -> ClientError:
        """The API's `{code, detail}`; a page that is not an API answer (a wrong URL, a proxy) says so."""
        try:
            body = json.loads(error.read() or b"null")
        except ValueError:
            body = None
        if isinstance(body, dict) and "detail" in body:
            return ApiError(error.code, body)
        return ClientError(f"{method} {self.base}{path} answered HTTP {error.code}, not an API answer: is --server "
                           f"the API root, like {DEFAULT_SERVER}?")


def _items(answer: Any) -> list:
    """A list answer, plain or in a paginated envelope."""
    return answer["results"] if isinstance(answer, dict) and "results" in answer else answer


def check_new_game(client: Client, kind: str, bots: list[str]) -> None:
    """Refuse a game the server would refuse, before a player is registered for it."""
    try:
        kinds = {k["kind"]: k for k in _items(client.call("GET", "/kinds/"))}
    except ApiError as error:
        if error.status != 404:
            raise
        raise ClientError(f"{client.base} has no /kinds/: is --server the API root, like {DEFAULT_SERVER}?") from None
    if kind not in kinds:
        raise ClientError(f"unknown --kind {kind!r}; this server offers: {', '.join(sorted(kinds))}")
    seats = kinds[kind]["seats"]
    if 1 + len(bots) not in seats:
        raise ClientError(f"{kind} is played by {min(seats)} to {max(seats)} players: --against must name "
                          f"{min(seats) - 1} to {max(seats) - 1} bots, not {len(bots)}")
    known = {b["name"] for b in _items(client.call("GET", "/bots/"))}
    unknown = sorted(set(bots) - known)
    if unknown:
        raise ClientError(f"unknown bot(s) in --against: {', '.join(unknown)}; this server has: "
                          f"{', '.join(sorted(known))}")


def choose(state: dict, rng: random.Random) -> dict:
    """Your strategy: `state["view"]` is what your seat sees; return one of `state["legal_actions"]`."""
    return rng.choice(state["legal_actions"])


def play(client: Client, game_id: str, rng: random.Random, log=print) -> dict:
    """Play the caller's seat until the game is over; returns the final state."""
    moves = conflicts = 0
    while True:
        state = client.call("GET", f"/games/{game_id}/state/")
        if state["seat"] is None:
            raise SystemExit(f"you hold no seat in game {game_id}")
        if state["status"] != "active":
            log(f"game over after {moves} moves of mine ({conflicts} conflicts): {json.dumps(state['result'])}")
            return state
        if state["seat"] not in state["to_act"] or not state["legal_actions"]:
            client.call("GET", f"/games/{game_id}/events/?after={state['version']}&wait=30")  # until it moves
            continue
        body = {"action": choose(state, rng), "expected_version": state["version"], "seat": state["seat"]}
        try:
            client.call("POST", f"/games/{game_id}/actions/", body, {"Idempotency-Key": str(uuid.uuid4())})
            moves += 1
        except ApiError as refused:
            if refused.status != 409:  # 422 would mean a bug here: the action came from legal_actions
                raise
            conflicts += 1  # someone moved first, or the game ended: look again
            log(f"409 {refused.code}: reloading")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--server", default=DEFAULT_SERVER, help="the API root")
    parser.add_argument("--token", help="an existing player's token; if none, a new player is registered")
    parser.add_argument("--name", help="name of the new player; if none, a random one")
    parser.add_argument("--game", help="a game where the player holds a seat; if none, a new game is created")
    parser.add_argument("--kind", default="spite-and-malice", help="the kind of a new game (see GET /kinds/)")
    parser.add_argument("--against", default="random", help="comma-separated bots for the other seats of a new game")
    parser.add_argument("--seed", type=int, help="seed of this client's choices; if none, they differ at each run")
    args = parser.parse_args()
    server = urllib.parse.urlsplit(args.server)
    if server.scheme not in ("http", "https") or not server.netloc:
        parser.error(f"--server must be an http(s) URL like {DEFAULT_SERVER}, not {args.server!r}")
    if args.game:
        try:
            args.game = str(uuid.UUID(args.game))
        except ValueError:
            parser.error(f"--game must be a game id (a UUID, as POST /games/ answers), not {args.game!r}")
    if args.token and not args.game:
        parser.error("--token needs --game (a new game seats a player by id: omit --token to register one)")

    client = Client(args.server, args.token)
    game_id = args.game
    bots = [bot for bot in args.against.split(",") if bot]
    if not game_id:
        check_new_game(client, args.kind, bots)
    if not args.token:
        me = client.call("POST", "/players/", {"name": args.name or f"bot-{uuid.uuid4().hex[:8]}"})
        client.token = me["token"]
        print(f"registered {me['name']} (id {me['id']}); token {me['token']}")
    if not game_id:
        seats = [{"player": me["id"]}] + [{"bot": bot} for bot in bots]
        game_id = client.call("POST", "/games/", {"kind": args.kind, "seats": seats})["id"]
        print(f"created {args.kind} game {game_id}", flush=True)
    final = play(client, game_id, random.Random(args.seed))
    mine = final["seat"]
    winners = (final["result"] or {}).get("winners") or []
    print(f"game {game_id}: {'won' if mine in winners else 'not won'} (seat {mine}, winners {winners})")


if __name__ == "__main__":
    try:
        main()
    except ApiError as refused:
        raise SystemExit(f"the server refused: {refused}") from None
    except ClientError as stopped:
        raise SystemExit(str(stopped)) from None
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
