"""The solver pool of ``ddz serve``: N warm worker processes, at most N solves at once.

Each worker (:mod:`ddz.web.worker`) is a child process started and warmed up when the
server starts, so that a request never pays for a cold start, and a search never holds
the server's event loop or GIL. :meth:`SolverPool.solve` waits for an idle worker (at
most ``max_waiting`` requests wait; more get :class:`Busy`), sends it the job and
returns its answer.

Stopping a search, for real:

* the worker's own ``time_limit`` (the server's limit caps every request's);
* :meth:`SolverPool.solve` cancelled (the server does that when the client goes away, e.g.
  the page's Cancel aborts its request): the worker is told to cancel, which sets the
  ``threading.Event`` that ``ddz.solve(cancel=...)`` polls; the worker is idle again as
  soon as it answers;
* a worker that does not answer within ``grace`` seconds of its time limit or of a
  cancel (or whose ``ddz.solve`` has no ``cancel``) is killed and replaced by a fresh
  one, so no search outlives its request by more than ``grace``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys
from typing import Any, Dict, List, Optional

from ddz import DEFAULT_TABLE_MB

__all__ = ["SolverPool", "Busy", "WorkerError"]


class Busy(Exception):
    """Every worker is busy and ``max_waiting`` requests are already waiting."""


class WorkerError(Exception):
    """A worker died or answered nonsense (an internal error, not bad input)."""


class _Worker:
    """One child process and the job it runs."""

    def __init__(self, proc: asyncio.subprocess.Process, cancel: bool, pid: int) -> None:
        self.proc = proc
        self.can_cancel = cancel
        self.pid = pid
        self.job: Optional[int] = None
        self.future: Optional[asyncio.Future] = None
        self.reader: Optional[asyncio.Task] = None
        self.dead = False               # its output ended: it exited (or was killed)

    def send(self, msg: Dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())

    async def read_loop(self) -> None:
        """Hand each answer to the future of the job it answers; fail it at EOF."""
        assert self.proc.stdout is not None
        while True:
            line = await self.proc.stdout.readline()
            if not line:
                break
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            fut = self.future
            if fut is not None and not fut.done() and msg.get("id") == self.job:
                fut.set_result(msg)
        self.dead = True
        fut = self.future
        if fut is not None and not fut.done():
            fut.set_exception(WorkerError(f"solver worker {self.pid} exited (status {await self.proc.wait()})"))

    def kill(self) -> None:
        if self.proc.returncode is None:
            try:
                self.proc.kill()
            except ProcessLookupError:  # pragma: no cover - exited meanwhile
                pass


class SolverPool:
    """``workers`` warm solver processes.

    :param workers: processes, and so the most solves that run at once (>= 1).
    :param table_mb: each worker's transposition table (``ddz.solve``'s ``table_mb``).
    :param max_waiting: the most requests that wait for a worker; one more is :class:`Busy`.
    :param grace: seconds a worker has to stop after its time limit or a cancel before
        it is killed and replaced.
    """

    def __init__(self, workers: int = 2, table_mb: float = DEFAULT_TABLE_MB, max_waiting: int = 64,
                 grace: float = 2.0) -> None:
        self.size = workers
        self.table_mb = table_mb
        self.max_waiting = max_waiting
        self.grace = grace
        self.idle: "asyncio.Queue[_Worker]" = asyncio.Queue()
        self.workers: List[_Worker] = []
        self.waiting = 0
        self.counts = {"solved": 0, "cancelled": 0, "replaced": 0, "failed": 0}
        self._ids = itertools.count(1)
        self._closing = False
        self._tasks: set = set()

    # -- workers ------------------------------------------------------------------------
    async def _spawn(self) -> _Worker:
        env = dict(os.environ)
        env.setdefault("PYTHONUNBUFFERED", "1")
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "ddz.web.worker", "--table-mb", str(self.table_mb),
            "--processes", str(self.size),          # the workers share the memory
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env,
            start_new_session=True)         # Ctrl-C on the terminal stops the server, which stops us
        assert proc.stdout is not None
        line = await proc.stdout.readline()
        try:
            hello = json.loads(line)
        except ValueError:
            hello = {}
        if not hello.get("ready"):
            proc.kill()
            raise WorkerError(f"a solver worker did not start (exit status {await proc.wait()}); "
                              "its error is above")
        w = _Worker(proc, bool(hello.get("cancel")), int(hello["pid"]))
        w.reader = asyncio.ensure_future(w.read_loop())
        self.workers.append(w)
        return w

    async def start(self) -> None:
        """Start and warm up every worker (they start in parallel)."""
        for w in await asyncio.gather(*(self._spawn() for _ in range(self.size))):
            self.idle.put_nowait(w)

    async def close(self) -> None:
        """Stop every worker."""
        self._closing = True
        for t in list(self._tasks):
            t.cancel()
        for w in self.workers:
            if w.proc.stdin is not None:
                w.proc.stdin.close()
            w.kill()
        for w in self.workers:
            await w.proc.wait()
            if w.reader is not None:
                w.reader.cancel()
        self.workers.clear()

    async def _replace(self, w: _Worker) -> None:
        """Kill ``w`` and put a fresh worker in its place."""
        w.kill()
        await w.proc.wait()
        if w.reader is not None:
            await asyncio.gather(w.reader, return_exceptions=True)
        if w.future is not None and w.future.done() and not w.future.cancelled():
            w.future.exception()          # retrieved: nobody waits for it any more
        if w in self.workers:
            self.workers.remove(w)
        self.counts["replaced"] += 1
        if not self._closing:
            self.idle.put_nowait(await self._spawn())

    def _background(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:     # e.g. a worker that cannot start
            print(f"ddz serve: {type(task.exception()).__name__}: {task.exception()}", file=sys.stderr)

    async def _stop(self, w: _Worker, fut: asyncio.Future, cancelled: bool) -> None:
        """Stop ``w``'s search: a cancel, then ``grace`` seconds, then the kill."""
        if cancelled:
            self.counts["cancelled"] += 1
        if w.can_cancel and w.proc.returncode is None:
            w.send({"cancel": w.job})
            try:
                await asyncio.wait_for(asyncio.shield(fut), self.grace)
            except (asyncio.TimeoutError, WorkerError):
                pass
            if fut.done() and fut.exception() is None:
                w.job = w.future = None
                self.idle.put_nowait(w)
                return
        await self._replace(w)

    # -- solving ------------------------------------------------------------------------
    async def solve(self, job: Dict[str, Any]) -> Dict[str, Any]:
        """Solve ``job`` (:func:`ddz.web.api.solve_job`) on an idle worker.

        :returns: the worker's message: ``{"ok": true, "answer": ...}`` or ``{"ok":
            false, "error", "type"}``.
        :raises Busy: ``max_waiting`` requests are waiting already.
        :raises WorkerError: the worker died.
        :raises asyncio.CancelledError: cancelled (the worker's search is stopped).
        """
        if self.idle.empty() and self.waiting >= self.max_waiting:
            raise Busy(f"the server is busy: {self.size} solves running and {self.waiting} waiting; "
                       "try again later")
        self.waiting += 1
        try:
            w = await self.idle.get()
            while w.dead or w.proc.returncode is not None:     # died while idle: replace it
                self._background(self._replace(w))
                w = await self.idle.get()
        finally:
            self.waiting -= 1
        fut = asyncio.get_running_loop().create_future()
        w.job, w.future = next(self._ids), fut
        try:
            w.send({"id": w.job, "job": job})
            msg = await asyncio.wait_for(asyncio.shield(fut), job["time_limit"] + self.grace)
        except asyncio.TimeoutError:                  # past its own time limit: stop it
            self._background(self._stop(w, fut, False))
            return {"ok": True, "answer": None, "stopped": "time limit"}
        except asyncio.CancelledError:                # the client went away
            self._background(self._stop(w, fut, True))
            raise
        except WorkerError:
            self.counts["failed"] += 1
            self._background(self._replace(w))
            raise
        w.job = w.future = None
        self.idle.put_nowait(w)
        self.counts["solved"] += 1
        return msg

    def status(self) -> Dict[str, Any]:
        """Workers, idle workers, waiting requests and counts of solves, cancels,
        replaced workers and solves lost with a dead worker."""
        return {"workers": self.size, "idle": self.idle.qsize(), "waiting": self.waiting,
                "pids": [w.pid for w in self.workers],
                "cancel": "event" if all(w.can_cancel for w in self.workers) else "kill",
                **self.counts}
