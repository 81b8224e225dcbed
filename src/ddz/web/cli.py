"""The ``ddz serve`` command: run the web app on uvicorn (issue 28).

:func:`add_parser` adds the sub-command to the ``ddz`` parser (``ddz.cli`` calls it);
:func:`main` runs it. Starlette and uvicorn are imported only when the command runs.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import sys
from typing import Any

from ddz import DEFAULT_TABLE_MB, DdzError, check_table_memory, table_mb_option, threads_arg

__all__ = ["add_parser", "main", "serve", "is_loopback", "MAX_WORKERS_PER_CPU"]

MAX_WORKERS_PER_CPU = 4
"""``--workers`` is at most this many per usable CPU (more are capped): each worker is a
process with its own table, and solves beyond the CPUs only share them."""


def _positive(kind):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0 or value != value or value == float("inf"):
            raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
        return value
    return parse


def _count(text: str) -> int:
    """``--workers``: an int >= 0 (0: one per usable CPU)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {text!r}")
    return value


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``serve`` to the ``ddz`` command's sub-parsers."""
    p = subparsers.add_parser(
        "serve", help="the puzzle solver and replay viewer in a browser (needs ddz[web])",
        description="Serve the web app: the endgame puzzle solver and the record replay viewer, "
                    "with a JSON API (docs/api.md). It listens on the loopback address only "
                    "unless --host says otherwise; there is no authentication, so expose it "
                    "(e.g. --host 0.0.0.0) only on a network you trust.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free port)")
    p.add_argument("--workers", type=_count, default=min(2, os.cpu_count() or 1),
                   help="solver processes: the most solves at once (default: 2, or 1 on one core; "
                        f"0: one per usable CPU; at most {MAX_WORKERS_PER_CPU} per CPU)")
    p.add_argument("--time-limit", type=_positive(float), default=30.0, metavar="SECONDS",
                   help="the longest one solve may search (default 30)")
    p.add_argument("--table-mb", type=table_mb_option, default=DEFAULT_TABLE_MB, metavar="MB",
                   help=f"the most each solver's transposition table grows to, MiB (default "
                        f"{DEFAULT_TABLE_MB}: the workers share the memory the system can give; "
                        "another size: all of them must fit in the memory available)")
    p.add_argument("--max-waiting", type=_positive(int), default=64, metavar="N",
                   help="solves that may wait for a free solver; more get 429 (default 64)")
    p.add_argument("--open", action="store_true", help="open the page in a web browser")
    p.set_defaults(func=main)
    return p


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (or ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _socket(host: str, port: int) -> socket.socket:
    if not 0 <= port <= 65535:
        raise DdzError(f"--port must be 0..65535, got {port}")
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
    except OSError as exc:
        raise DdzError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def serve(host: str = "127.0.0.1", port: int = 8000, *, open_browser: bool = False,
          **options: Any) -> None:
    """Run the web app until Ctrl-C (or SIGTERM); print its address once it answers.

    :param options: :func:`ddz.web.server.create_app`'s keywords.
    :raises DdzError: the web extra is missing, or the address cannot be used.
    """
    try:
        import uvicorn   # optional dependency (the web extra)
        from .server import create_app
    except ImportError as exc:
        raise DdzError(f"ddz serve needs the web extra: pip install 'ddz[web]' ({exc})") from None
    sock = _socket(host, port)
    port = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    url = f"http://{shown}:{port}/"

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            super().handle_exit(sig, frame)
            # Ctrl-C (SIGINT, SIGTERM, Windows' Ctrl-Break) is how this command stops: do not
            # have uvicorn raise the signal again once it has shut down (exit status 0)
            captured = getattr(self, "_captured_signals", None)
            if isinstance(captured, list):
                captured.clear()

        async def startup(self, sockets=None) -> None:
            await super().startup(sockets=sockets)
            if self.should_exit:
                return
            print(f"ddz serve: {url} (Ctrl-C stops)", flush=True)
            if not is_loopback(host):
                print("ddz serve: listening beyond this machine, without authentication: anyone "
                      "who reaches this address can use it", file=sys.stderr, flush=True)
            if open_browser:
                import webbrowser   # start-up time: only with --open
                webbrowser.open(url)

    config = uvicorn.Config(create_app(**options), log_level="warning", lifespan="on")
    try:
        Server(config).run(sockets=[sock])
    except KeyboardInterrupt:       # a Ctrl-C before uvicorn's handlers were installed
        pass
    print("ddz serve: stopped", flush=True)


def main(args: argparse.Namespace) -> int:
    """``ddz serve``: returns the exit status.

    ``--workers`` beyond :data:`MAX_WORKERS_PER_CPU` per usable CPU is capped there.

    :raises DdzError: ``--workers`` tables of a ``--table-mb`` given that do not fit in memory
        (checked before any worker starts).
    """
    # the one rule of every count of processes (ddz.threads_arg): 0 every usable CPU, capped
    workers = threads_arg(args.workers, name="--workers", per_cpu=MAX_WORKERS_PER_CPU)
    if args.table_mb != DEFAULT_TABLE_MB:       # the default cap grows within the memory
        check_table_memory(args.table_mb, workers)
    serve(args.host, args.port, open_browser=args.open, workers=workers,
          time_limit=args.time_limit, table_mb=args.table_mb, max_waiting=args.max_waiting)
    return 0
