"""`python -m config.web`: the connections its workers serve have Nagle's algorithm off, where uvicorn's own
multi-worker socket leaves it on (the cause of a ~40 ms stall per request)."""

import asyncio
import http.client
import socket
import threading

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from config.web import NoDelayH11Protocol, main


async def _app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


def _nodelay_seen(protocol: type[H11Protocol]) -> int:
    """Serve one request with `protocol` on a listening socket made as uvicorn makes it for its workers
    (no protocol number); returns TCP_NODELAY as it was on the served connection."""
    seen: list[int] = []

    class Recording(protocol):
        def connection_made(self, transport):
            super().connection_made(transport)
            seen.append(transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    listener = socket.socket(family=socket.AF_INET)  # as uvicorn.Config.bind_socket
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(_app, http=Recording, lifespan="off", log_level="warning"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[listener])))
    thread.start()
    try:
        for _ in range(100):
            if server.started:
                break
            threading.Event().wait(0.05)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/")
        assert connection.getresponse().read() == b"ok"
        connection.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    return seen[0]


def test_the_launchers_protocol_turns_nagle_off_where_uvicorns_socket_leaves_it_on():
    assert _nodelay_seen(H11Protocol) == 0
    assert _nodelay_seen(NoDelayH11Protocol) != 0


def test_the_launcher_serves_the_project_with_its_options(monkeypatch):
    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append((app, options)))
    main(["--port", "9999", "--workers", "3"])
    app, options = calls[0]
    assert app == "config.asgi:application"
    assert options["workers"] == 3 and options["port"] == 9999
    assert options["http"] == "config.web:NoDelayH11Protocol" and options["timeout_graceful_shutdown"] >= 1
