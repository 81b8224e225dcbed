"""The ``ddz serve`` web app: the page, its assets and the JSON API (Starlette, issue 28).

Routes (docs/api.md, "The JSON API"):

* ``GET /``: the page (``static/index.html.in``, a template filled with the card symbols of
  :func:`ddz.web.cards.sprite` put in); ``GET /static/...``: its scripts and style;
* ``POST /api/solve``, ``/api/lost_at`` (in the solver pool), ``/api/legal``,
  ``/api/classify``, ``/api/replay``: JSON in, JSON out (:mod:`ddz.web.api`);
  ``GET /api/info``, ``GET /api/status``.

Bad input is a 4xx answer ``{"error": message, "type": name}``: ``400`` a body that is
not JSON, ``413`` one too large, ``415`` one not sent as ``application/json`` (which
also keeps other web sites' pages from posting to a local server without asking),
``422`` anything :mod:`ddz` refuses (the :class:`ddz.DdzError`'s own message and class
name), ``429`` too many solves waiting; a bug is a ``500`` ``{"error", "type": "internal"}``
(its traceback on the server's standard error), never a dead server. Solves run in the
:class:`~ddz.web.pool.SolverPool`; a client that goes away while its solve waits or runs
(the page's Cancel aborts the request) stops that search.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import pathlib
import traceback
from typing import Any, Callable, Dict

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import ddz
from ddz import DEFAULT_TABLE_MB

from . import api
from .cards import sprite
from .pool import Busy, SolverPool, WorkerError

__all__ = ["create_app", "STATIC", "BODY_LIMIT", "REPLAY_LIMIT"]

STATIC = pathlib.Path(__file__).resolve().parent / "static"
BODY_LIMIT = 64 * 1024            #: bytes of a solve, legal or classify request
REPLAY_LIMIT = 16 * 1024 * 1024   #: bytes of a replay request (a record file)
_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class _RemoteDdzError(ddz.DdzError):
    """A :class:`ddz.DdzError` raised in a worker: its message and class name."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class _BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


#: the deepest nesting of lists and objects a request body may have
MAX_DEPTH = 64


def _error(status: int, message: str, kind: str) -> JSONResponse:
    return JSONResponse({"error": message, "type": kind}, status_code=status, headers=_HEADERS)


async def _body(request: Request, limit: int) -> Any:
    """The request's JSON body, at most ``limit`` bytes."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise _BadRequest(415, "send the body as JSON with Content-Type: application/json")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _BadRequest(413, f"the body has {int(declared):,} bytes; the most is {limit:,}")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise _BadRequest(413, f"the body is longer than {limit:,} bytes")
    try:
        body = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise _BadRequest(400, f"the body is not UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise _BadRequest(400, f"the body is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:       # an integer too long, nesting too deep
        raise _BadRequest(400, f"the body is not usable JSON: {exc or 'nested too deeply'}") from None
    # how deep json.loads may nest depends on the Python (3.13 parses 5,000 levels, 3.11
    # not 1,000): one bound for every Python, far above what a request needs
    if data.count(b"[") + data.count(b"{") > MAX_DEPTH and _deeper_than(body, MAX_DEPTH):
        raise _BadRequest(400, f"the body is not usable JSON: nested more than {MAX_DEPTH} levels deep")
    return body


def _deeper_than(obj: Any, limit: int) -> bool:
    """Whether the parsed JSON ``obj`` nests lists and objects more than ``limit`` deep."""
    stack = [(obj, 1)]
    while stack:
        x, d = stack.pop()
        if isinstance(x, (list, dict)):
            if d > limit:
                return True
            stack.extend((y, d + 1) for y in (x.values() if isinstance(x, dict) else x))
    return False


async def _answer(request: Request, limit: int, fn: Callable[[Any], Any]) -> Response:
    try:
        return JSONResponse(await fn(await _body(request, limit)), headers=_HEADERS)
    except _BadRequest as exc:
        return _error(exc.status, str(exc), "internal" if exc.status >= 500 else "BadRequest")
    except ddz.DdzError as exc:
        return _error(422, str(exc), getattr(exc, "kind", type(exc).__name__))
    except Busy as exc:
        return _error(429, str(exc), "Busy")
    except Exception as exc:  # noqa: BLE001 - a bug: a JSON 500 (traceback on stderr), the server goes on
        traceback.print_exc()
        return _error(500, f"internal error: {type(exc).__name__}: {exc}", "internal")


async def _disconnected(request: Request) -> None:
    """Return when the client closes its connection (the body has been read)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def create_app(*, workers: int = 2, time_limit: float = 30.0, table_mb: float = DEFAULT_TABLE_MB,
               max_waiting: int = 64) -> Starlette:
    """The web app.

    :param workers: solver processes: the most solves that run at once (>= 1).
    :param time_limit: the longest a solve may search, seconds (a request asks for at most
        this much; without ``time_limit`` it gets this much).
    :param table_mb: each worker's transposition table, MiB.
    :param max_waiting: the most solves that wait for a worker; more are refused (429).
    :returns: a Starlette app (ASGI); its lifespan starts and stops the worker pool.
    """
    pool: Dict[str, SolverPool] = {}
    index = (STATIC / "index.html.in").read_text(encoding="utf-8")
    index = index.replace("<!--ddz:cards-->", sprite()).replace("{{version}}", ddz.__version__)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        pool["p"] = SolverPool(workers, table_mb, max_waiting)
        try:
            await pool["p"].start()
            yield
        finally:
            await pool["p"].close()

    async def page(request: Request) -> Response:
        return HTMLResponse(index, headers=_HEADERS)

    async def info(request: Request) -> Response:
        return JSONResponse(api.info(time_limit, workers), headers=_HEADERS)

    async def status(request: Request) -> Response:
        return JSONResponse(pool["p"].status(), headers=_HEADERS)

    def pooled(check: Callable[[Any, float], Dict[str, Any]], limit: int, threaded: bool = False) -> Callable:
        """An endpoint whose job runs in the solver pool: ``check`` makes it in the server
        (in a thread with ``threaded``: reading records takes a while)."""
        async def handle(request: Request) -> Response:
            return await _pooled(request, limit, check, threaded)
        return handle

    async def _pooled(request: Request, limit: int, check: Callable[[Any, float], Dict[str, Any]],
                      threaded: bool) -> Response:
        async def run(body: Any) -> Any:
            job = await run_in_threadpool(check, body, time_limit) if threaded else check(body, time_limit)
            solving = asyncio.ensure_future(pool["p"].solve(job))
            gone = asyncio.ensure_future(_disconnected(request))
            await asyncio.wait({solving, gone}, return_when=asyncio.FIRST_COMPLETED)
            if not solving.done():               # the client went away: stop its search
                solving.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await solving
                raise _BadRequest(499, "the client closed the request")
            gone.cancel()
            try:
                msg = solving.result()
            except WorkerError as exc:
                raise _BadRequest(500, f"internal error: {exc}") from None
            if msg.get("answer") is None and msg.get("ok"):
                return api.stopped(job, msg["stopped"])
            if not msg["ok"]:
                if msg["type"] == "internal":
                    raise _BadRequest(500, f"internal error: {msg['error']}")
                raise _RemoteDdzError(msg["error"], msg["type"])
            return msg["answer"]
        return await _answer(request, limit, run)

    def endpoint(fn: Callable[[Any], Any], limit: int, threaded: bool = False) -> Callable:
        async def run(body: Any) -> Any:
            return await run_in_threadpool(fn, body) if threaded else fn(body)

        async def handle(request: Request) -> Response:
            return await _answer(request, limit, run)
        return handle

    routes = [
        Route("/", page),
        Route("/api/info", info),
        Route("/api/status", status),
        Route("/api/solve", pooled(api.solve_job, BODY_LIMIT), methods=["POST"]),
        Route("/api/lost_at", pooled(api.lost_at_job, REPLAY_LIMIT, threaded=True), methods=["POST"]),
        Route("/api/legal", endpoint(api.legal, BODY_LIMIT), methods=["POST"]),
        Route("/api/classify", endpoint(api.classify, BODY_LIMIT), methods=["POST"]),
        Route("/api/replay", endpoint(api.replay, REPLAY_LIMIT, threaded=True), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
