"""What the fault tests inject failures into: a Redis server of their own on a spare port (stopped and started
again at will), the web server, Celery worker and beat as subprocesses on it, and a TCP proxy in front of
PostgreSQL that can be cut and restored (the machine's PostgreSQL itself is never stopped)."""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from tests.integration import live


class RedisServer:
    """`redis-server` on a free loopback port, without persistence: a restart loses everything it held."""

    def __init__(self, tmp: Path) -> None:
        self.port = live.free_port()
        self.tmp = tmp
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.tmp)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while not self.answers():
            assert time.monotonic() < deadline and self.process.poll() is None, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        """Kill it, as a crash would: every connection to it breaks, every message it held is gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False


class Processes:
    """The subprocesses a test starts (web, workers, beat): their environment, logs, and their end."""

    def __init__(self, tmp: Path, env: dict[str, str]) -> None:
        self.tmp, self.env = tmp, env
        self.started: list[subprocess.Popen] = []

    def _env(self, extra: dict[str, str]) -> dict[str, str]:
        full = {k: v for k, v in os.environ.items() if k not in live._SERVICE_VARS}
        full.update(self.env, **extra)
        return full

    def spawn(self, name: str, command: list[str], **extra: str) -> subprocess.Popen:
        log = open(self.tmp / f"{name}-{len(self.started)}.log", "w")  # noqa: SIM115 - closed by the process end
        process = subprocess.Popen(command, cwd=live.ROOT, env=self._env(extra), stdout=log,
                                   stderr=subprocess.STDOUT)
        process.log = Path(log.name)  # type: ignore[attr-defined]
        self.started.append(process)
        return process

    def worker(self, app: str = "config", **extra: str) -> subprocess.Popen:
        """A solo worker, once it is consuming."""
        process = self.spawn("worker", [sys.executable, "-m", "celery", "-A", app, "worker", "-P", "solo", "-c", "1",
                                     "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "INFO"],
                          CELERY_LOG_LEVEL="INFO", **extra)
        wait_for_log(process, " ready.")
        return process

    def beat(self, **extra: str) -> subprocess.Popen:
        """Celery beat (the outbox sweep), once it has started."""
        process = self.spawn("beat", [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "INFO",
                                      "-s", str(self.tmp / "beat-schedule")], CELERY_LOG_LEVEL="INFO", **extra)
        wait_for_log(process, "beat: Starting...")
        return process

    def web(self, **extra: str) -> str:
        """The README's uvicorn command on a free port, once it answers; returns the API's base URL."""
        port = live.free_port()
        process = live.start_server(self._env(extra), port, embedded=False)
        self.started.append(process)
        return f"http://127.0.0.1:{port}/api/v1"

    def stop_all(self) -> None:
        for process in self.started:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.started:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_for_log(process: subprocess.Popen, text: str, timeout: float = 60) -> None:
    """Wait until `process` printed `text` (a worker's "ready.", beat's "Starting...")."""
    deadline = time.monotonic() + timeout
    while text not in log_of(process):
        assert process.poll() is None and time.monotonic() < deadline, log_of(process)
        time.sleep(0.05)


def log_of(process: subprocess.Popen) -> str:
    path = getattr(process, "log", None)
    return path.read_text(errors="replace") if path is not None else live.output(process)


class TcpProxy:
    """Forwards a loopback port to `target`. `cut()` drops every open connection and refuses new ones until
    `restore()`: what a server sees when the network to its database fails."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = live.free_port()
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._stopped = threading.Event()

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # closed by cut() or close()
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._listener is not listener:  # cut meanwhile: this connection must not outlive it
                    client.close()
                    upstream.close()
                    continue
                self._sockets.update((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        picker = selectors.DefaultSelector()
        picker.register(a, selectors.EVENT_READ, b)
        picker.register(b, selectors.EVENT_READ, a)
        try:
            while True:
                for key, _ in picker.select(timeout=1):
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                    if not data:
                        return
                    key.data.sendall(data)
        except OSError:
            return
        finally:
            picker.close()
            for sock in (a, b):
                with contextlib.suppress(OSError):
                    sock.close()
                with self._lock:
                    self._sockets.discard(sock)

    def cut(self) -> None:
        with self._lock:
            listener, self._listener = self._listener, None
            sockets, self._sockets = list(self._sockets), set()
        if listener is not None:
            # Closing alone does not wake an accept() blocked in another thread (Linux keeps the listening
            # socket alive for it, and it would let one more connection through); shutting it down does.
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                sock.close()

    def restore(self) -> None:
        self.start()

    def close(self) -> None:
        self.cut()


@contextlib.contextmanager
def stopwatch() -> Iterator[list[float]]:
    """`with stopwatch() as took:` then `took[0]` is the block's duration in seconds."""
    took: list[float] = []
    start = time.monotonic()
    try:
        yield took
    finally:
        took.append(time.monotonic() - start)
