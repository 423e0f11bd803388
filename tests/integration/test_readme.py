"""The README's "A whole game with curl" works when typed in: its ```sh blocks run with bash against
`manage.py serve` (the embedded default, on SQLite), top to bottom and then again in the same shell, every
command succeeding, every HTTP answer a 2xx, and each run's game played to its end."""

from __future__ import annotations

import re
import subprocess

import httpx
import pytest

from tests.integration import live

README = live.ROOT / "README.md"
SECTION = "## A whole game with curl"
DEFAULT_API = "http://127.0.0.1:8000/api/v1"
# Every curl of the walkthrough reports its status on stderr (the shell function shadows the command).
STATUS_PROBE = "curl() { command curl -w '%{stderr}HTTP %{http_code} %{method} %{url_effective}\\n' \"$@\"; }\n"
STATUS_LINE = re.compile(r"^HTTP (\d{3}) (\S+) (\S+)$")


def walkthrough_blocks(text: str) -> list[str]:
    """The ```sh blocks of the walkthrough section, in order."""
    start = text.index(SECTION) + len(SECTION)
    end = text.find("\n## ", start)
    section = text[start:end if end >= 0 else None]
    return re.findall(r"^```sh\n(.*?)^```$", section, flags=re.S | re.M)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("readme")
    with live.server({"DATABASE_URL": f"sqlite:///{folder / 'tavolo.sqlite3'}"}) as base:
        yield base


def test_the_walkthrough_has_its_steps():
    blocks = walkthrough_blocks(README.read_text())
    assert len(blocks) >= 4
    script = "\n".join(blocks)
    assert script.count(DEFAULT_API) == 1  # set once, as $API
    assert "/accept/" in script and "/actions/" in script and "/export/" in script


def test_the_curl_walkthrough_runs_twice_in_a_row(server):
    walkthrough = "\n".join(walkthrough_blocks(README.read_text())).replace(DEFAULT_API, server)
    script = "set -euo pipefail\n" + STATUS_PROBE + "".join(
        f"{walkthrough}\necho; echo \"WALKTHROUGH-GAME $ID\"\n" for _ in range(2))
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=900, cwd=live.ROOT)
    assert done.returncode == 0, done.stderr[-3000:]

    calls = [STATUS_LINE.match(line) for line in done.stderr.splitlines()]
    noise = [line for line, call in zip(done.stderr.splitlines(), calls, strict=True) if call is None]
    assert noise == []  # no curl error, no Python traceback
    refused = [call.group(0) for call in calls if not call.group(1).startswith("2")]
    assert refused == []
    moves = [call for call in calls if call.group(2) == "POST" and call.group(3).endswith("/actions/")]
    assert len(moves) >= 20

    games = re.findall(r"^WALKTHROUGH-GAME (\S+)$", done.stdout, flags=re.M)
    assert len(games) == 2 and games[0] != games[1]
    for game_id in games:
        summary = httpx.get(f"{server}/games/{game_id}/").json()
        assert summary["status"] == "finished" and summary["result"], summary
        assert [seat["player"] is not None for seat in summary["seats"]] == [True, True]
        assert httpx.get(f"{server}/games/{game_id}/export/").json()["verification"]["ok"] is True
