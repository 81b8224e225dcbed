"""The one rule for every count of threads or processes (issue 40, docs/DESIGN.md).

``threads`` where it counts threads (the batch kernels, :class:`ddz.envs.VectorGame`,
:func:`ddz.solve`), ``workers`` where it counts processes (the arena, ``ddz.distributed``,
``ddz selfplay --ray``, ``ddz serve``): the same range, an int >= 0, where 0 means every
CPU this process may run on (:func:`usable_cpus`); the count used is at most the usable
CPUs (times ``per_cpu`` where a worker mostly waits) and at most the work there is, and
at least 1. A larger count is not an error: it is capped, and the caller reports what it
used where it matters (the arena's ``workers``).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Optional

from ..errors import DdzError, quote
from .implementation import _running_the_command

__all__ = ["usable_cpus", "threads_arg", "solving_processes", "SOLVING_PROCESSES_ENV", "DEFAULT_TABLE_MB",
           "MAX_TABLE_MB", "table_mb_option"]

DEFAULT_TABLE_MB = 4096
"""The default cap of the transposition table, MiB (one table per calling thread). A
table is mapped at its cap but touched only as its search grows it: a search starts on
64 KiB to 64 MiB of entries (by its cards) and doubles the entries in use each time its
positions pass them, up to the cap, while each doubling fits in the memory the system
can still give (Linux ``MemAvailable``, within a cgroup's limit) divided by twice the
processes that solve at once (:data:`SOLVING_PROCESSES_ENV`, set by
the pools that start them); when a search ends, the pages past the first 64 MiB go back
to the kernel. A search of a few seconds uses some hundreds of MiB; a whole deal's, gigabytes."""

MAX_TABLE_MB = 1 << 20
"""The largest ``table_mb`` taken, MiB (1 TiB); the smallest is 1."""


def table_mb_option(text: str) -> float:
    """The ``--table-mb MB`` option's type (``ddz solve``, ``ddz analyze``, ``ddz serve``):
    a number of MiB from 1 to :data:`MAX_TABLE_MB`, as a float.

    :raises argparse.ArgumentTypeError: not such a number (argparse names the option).
    """
    try:
        if not isinstance(text, str):       # argparse gives text; True or b"64" are not MiB
            raise TypeError
        value = float(text)
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 1 <= value <= MAX_TABLE_MB:       # nan and inf fail it too
        raise argparse.ArgumentTypeError(f"must be a number of MiB from 1 to {MAX_TABLE_MB:,}, got {text!r}")
    return value


SOLVING_PROCESSES_ENV = "DDZ_SOLVING_PROCESSES"
"""The environment variable that tells :func:`ddz.solve` how many processes solve at
once on this machine: each one's transposition table grows only while its next doubling
fits in the memory the system can still give divided by twice that count (docs/DESIGN.md
"The table's memory"). Unset or empty: 1. Its value is checked when ``ddz`` is imported
(decimal digits, 1 to 10**12: anything else is a :class:`DdzError`, or in the ``ddz``
command ``ddz: error: ...`` and exit status 2); the solver reads it at each doubling of
a table, so a later change (by :func:`solving_processes`) counts from then on."""

_MAX_SOLVING_PROCESSES = 10 ** 12


def _check_solving_processes_env() -> None:
    """:class:`DdzError` (in the ``ddz`` command: its error line and exit status 2)
    unless :data:`SOLVING_PROCESSES_ENV` is unset, empty or a count of 1 to 10**12."""
    text = os.environ.get(SOLVING_PROCESSES_ENV, "")
    if text == "" or (text.isascii() and text.isdigit() and 1 <= int(text) <= _MAX_SOLVING_PROCESSES):
        return
    exc = DdzError(f"{SOLVING_PROCESSES_ENV} must be a count of processes from 1 to "
                   f"{_MAX_SOLVING_PROCESSES:,}, got {quote(text)}")
    if _running_the_command():
        sys.stderr.write(f"ddz: error: {exc}\n")
        raise SystemExit(2)
    raise exc


def solving_processes(count: int) -> None:
    """Declare that ``count`` processes of this machine solve at once (this one among
    them): sets :data:`SOLVING_PROCESSES_ENV` in this process, which its children
    inherit. The pools that start solving workers call it in each worker (``ddz serve``,
    the arena, :func:`ddz.distributed.solve_many`).

    :param count: an int >= 1.
    :raises DdzError: ``count`` is not an int >= 1.
    """
    try:
        n = None if isinstance(count, bool) else count.__index__()
    except (AttributeError, TypeError):
        n = None
    if n is None or not 1 <= n <= _MAX_SOLVING_PROCESSES:
        raise DdzError(f"solving_processes takes an int from 1 to {_MAX_SOLVING_PROCESSES:,}, got {quote(count)}")
    os.environ[SOLVING_PROCESSES_ENV] = str(n)


def usable_cpus() -> int:
    """The CPUs this process may run on (``os.sched_getaffinity``; ``os.cpu_count()``
    where that is missing): an int >= 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def threads_arg(value: Any, *, name: str = "threads", work: Optional[int] = None, per_cpu: int = 1,
                cap: bool = True) -> int:
    """The count of threads (or processes) to use for ``value``.

    :param value: an int >= 0 (a numpy integer too; not a bool): 0 is every usable CPU.
    :param name: how the caller calls it (``"threads"`` or ``"workers"``), for the message.
    :param work: the units of work that can run at once (deals, games, chunks, rows per
        thread...): no more threads than that; ``None``: no such bound.
    :param per_cpu: workers per usable CPU at most (where a worker mostly waits).
    :param cap: ``False`` keeps counts above the usable CPUs (a Ray cluster of other
        machines); the work still caps them.
    :returns: ``min(value or usable_cpus(), per_cpu * usable_cpus(), work)``, at least 1.
    :raises DdzError: ``value`` not an int >= 0.
    """
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise DdzError(f"{name} must be an int >= 0 (0: every usable CPU), not {type(value).__name__}: {quote(value)}")
    n = value.__index__()
    if n < 0:
        raise DdzError(f"{name} must be an int >= 0 (0: every usable CPU), got {n}")
    cpus = usable_cpus()
    n = n or cpus
    if cap:
        n = min(n, per_cpu * cpus)
    if work is not None:
        n = min(n, work)
    return max(1, n)


_check_solving_processes_env()
