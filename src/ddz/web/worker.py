"""A solver worker of ``ddz serve``: a process that solves one position at a time.

Started by :class:`ddz.web.pool.SolverPool` as ``python -m ddz.web.worker --table-mb MB
--processes N`` (N: the pool's workers, which share the memory: ``ddz.solving_processes``);
it talks JSON lines over its standard input and output:

* in: ``{"id": N, "job": JOB}`` (a job of :func:`ddz.web.api.solve_job` or
  :func:`ddz.web.api.lost_at_job`) or
  ``{"cancel": N}``;
* out: ``{"ready": true, "pid": P, "cancel": true}`` once warmed up (the compiled tables
  built and the transposition table allocated: a cold solve costs ~0.3 s), then one
  ``{"id": N, "ok": true, "answer": {...}}`` or ``{"id": N, "ok": false, "error": MESSAGE,
  "type": CLASS}`` per job.

Searches run in one long-lived thread (``ddz.solve`` keeps its transposition table per
thread), so the main thread stays free to read a cancel: it sets the job's
``threading.Event``, which ``ddz.solve(cancel=...)`` polls, and the search stops within a
few milliseconds. When standard input closes (the server is gone) the process exits at
once, even mid-search.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import inspect
import json
import os
import sys
import threading
from typing import Any, Dict, Optional, TextIO

#: the position solved before the worker says it is ready (issue 12's WZ1 puzzle)
WARM_POSITION = "KK5543/225543"


def _answer(job_id: int, job: Dict[str, Any], cancel: Optional[threading.Event],
            table_mb: float) -> Dict[str, Any]:
    import ddz   # in the worker process: imported there, after the fork or spawn
    from .api import run_job
    try:
        return {"id": job_id, "ok": True, "answer": run_job(job, cancel, table_mb=table_mb)}
    except ddz.DdzError as exc:
        return {"id": job_id, "ok": False, "error": str(exc), "type": type(exc).__name__}
    except Exception as exc:  # noqa: BLE001 - reported to the server (a 500), never a dead worker
        return {"id": job_id, "ok": False, "error": f"{type(exc).__name__}: {exc}", "type": "internal"}


def serve(stdin: TextIO, stdout: TextIO, table_mb: float) -> None:
    """Read jobs from ``stdin`` until it closes, answering on ``stdout``."""
    import ddz   # in the worker process: imported there, after the fork or spawn
    from .api import solve_job
    lock = threading.Lock()

    def send(msg: Dict[str, Any]) -> None:
        with lock:
            stdout.write(json.dumps(msg) + "\n")
            stdout.flush()

    cancellable = "cancel" in inspect.signature(ddz.solve).parameters
    searcher = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ddz-web-solve")
    warm = solve_job({"position": WARM_POSITION}, 10.0)
    searcher.submit(_answer, 0, warm, None, table_mb).result()
    send({"ready": True, "pid": os.getpid(), "cancel": cancellable})
    events: Dict[int, threading.Event] = {}

    def run(job_id: int, job: Dict[str, Any], event: threading.Event) -> None:
        msg = _answer(job_id, job, event if cancellable else None, table_mb)
        events.pop(job_id, None)
        send(msg)

    for line in stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if "cancel" in msg:
            event = events.get(msg["cancel"])
            if event is not None:
                event.set()
        elif "id" in msg:
            event = threading.Event()
            events[msg["id"]] = event
            searcher.submit(run, msg["id"], msg["job"], event)


def main(argv: Optional[list] = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ddz.web.worker")
    parser.add_argument("--table-mb", type=float, required=True)
    parser.add_argument("--processes", type=int, default=1, help="the pool's workers (they share the memory)")
    args = parser.parse_args(argv)
    import ddz   # in the worker process
    ddz.solving_processes(args.processes)
    out = sys.stdout
    sys.stdout = sys.stderr          # nothing but protocol lines on the real standard output
    try:
        serve(sys.stdin, out, args.table_mb)
    except KeyboardInterrupt:        # Ctrl-C reaches the whole process group: the server stops us
        pass
    os._exit(0)                      # do not wait for a search still running


if __name__ == "__main__":
    main()
