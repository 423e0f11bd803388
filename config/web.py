"""The production web server: `python -m config.web [--host H] [--port P] [--workers N]`.

Uvicorn serving `config.asgi:application` with N worker processes, each connection with Nagle's algorithm
off. Plain `uvicorn --workers N` leaves it on: the listening socket it binds for its workers is created
without a protocol number, so asyncio does not recognise the accepted connections as TCP and skips its
usual TCP_NODELAY. An answer written in two parts (head, then body) then waits for the client's delayed
acknowledgement of the first: about 40 ms added to every request (measured by bench/http_moves.py; one
process started without --workers is not affected).
"""

from __future__ import annotations

import argparse
import os
import socket

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol


class NoDelayH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with TCP_NODELAY set on each connection it serves."""

    def connection_made(self, transport) -> None:  # type: ignore[override]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m config.web", description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default=os.environ.get("WEB_HOST", "0.0.0.0"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("WEB_PORT", "8000")))
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_WORKERS", "2")),
                        help="web processes (default WEB_WORKERS or 2)")
    parser.add_argument("--log-level", default=os.environ.get("WEB_LOG_LEVEL", "info"))
    args = parser.parse_args(argv)
    # On SIGTERM open requests get SHUTDOWN_GRACE_SECONDS to finish (live streams never do by themselves).
    grace = int(os.environ.get("SHUTDOWN_GRACE_SECONDS", "3"))
    uvicorn.run("config.asgi:application", host=args.host, port=args.port, workers=args.workers,
                http="config.web:NoDelayH11Protocol", timeout_graceful_shutdown=grace, log_level=args.log_level)


if __name__ == "__main__":
    main()
