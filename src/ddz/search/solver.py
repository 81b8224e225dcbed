"""The endgame solver: :func:`solve` a perfect-information :class:`ddz.Position` (issues 12, 26).

Two seats (the classic 残局 puzzle: two open hands, a pass ends the trick) or three (the
real game: the landlord against two farmers who play as one side; a trick ends after
two passes), RULES.md §5. Win mode answers who wins under best play by both sides; score
mode (``score=True``) the signed score of RULES.md §6 from the landlord's side, each side
maximising its own result (bombs, the rocket, spring and anti-spring still to come).

The search is :mod:`ddz.search._solver` (Cython: alpha-beta with a transposition table of
``table_mb`` MiB, verified against the full state; see its docstring), run in the
calling thread. Each thread keeps its table between calls (one per thread: a call
with another size frees the old one first), mapped lazily from the kernel (a small
search touches a small part of it) and emptied in O(1) by a generation count; the
helper threads of ``threads > 1`` search on the caller's table. With
``DDZ_NO_EXTENSIONS=1`` the pure-Python :mod:`ddz.search.reference_solver` answers instead
(with a memo of solved positions): fine for a few cards, slow beyond; without a node or
time limit it refuses positions of more than :data:`PURE_PYTHON_MAX_CARDS` cards
(a :class:`ddz.DdzError`) rather than run for hours.
"""

from __future__ import annotations

import collections.abc
import concurrent.futures
import numbers
import os
import threading
import time
from dataclasses import dataclass, field, fields
from typing import Any, Callable, List, Optional, Tuple

from ..core.implementation import compiled
from ..core.cards import is_integer
from ..core.parallel import threads_arg, usable_cpus
from ..errors import DdzError, TableMemoryError, quote
from ..core.play import Play
from ..core.tables import trusted_play as _trusted_play
from ..game.position import Position
from .reference_solver import LimitReached, ref_solve
from ..core.parallel import DEFAULT_TABLE_MB, MAX_TABLE_MB

__all__ = ["Solution", "solve", "solve_batch", "check_table_memory", "PURE_PYTHON_MAX_CARDS", "DEFAULT_TABLE_MB", "NO_NODE_LIMIT", "NO_TIME_LIMIT"]

_solver = compiled("search._solver", "the compiled solver (ddz.search._solver)")

PURE_PYTHON_MAX_CARDS = 14
"""Under ``DDZ_NO_EXTENSIONS=1``, the most cards (all hands together) :func:`solve`
takes without a node or time limit."""

_PROGRESS_EVERY = 0.25     # seconds between progress calls
_PV_MAX = 120


@dataclass(frozen=True)
class Solution:
    """The answer of :func:`solve`.

    :ivar exact: ``True`` when the search finished; ``False`` when a node or time limit
        (or an interrupt) stopped it: then every answer field is ``None`` or empty, never
        a guess.
    :ivar landlord_wins: under best play, does the landlord win (``None`` if not exact).
    :ivar win: does the side to move win (``None`` if not exact).
    :ivar moves: the first winning move in search order (score mode: the first move of
        the best score for the side to move), or all of them in move order (RULES.md
        §2.3) with ``all_moves=True``; in win mode empty when the side to move loses.
        :class:`ddz.Play` objects.
    :ivar pv: a principal variation: the best line of play from the position to the end
        of the hand (both sides' moves, passes included).
    :ivar value: score mode: the signed score S from the landlord's side (RULES.md §6:
        base × multiplier × the doublings still to come); win mode: ``None``.
    :ivar nodes: positions searched.
    :ivar seconds: wall time of the call (argument checks and the answer's objects
        included).
    :ivar seats, landlord: the position's seat count and landlord (for :attr:`scores`).
    :ivar search_seconds: the search's own wall time (the value, the reported moves and
        the line; 0.0 where nothing was searched, and under ``DDZ_NO_EXTENSIONS=1`` the
        same as :attr:`seconds`).
    """

    exact: bool
    landlord_wins: Optional[bool]
    win: Optional[bool]
    moves: List[Play]
    pv: List[Play]
    value: Optional[int]
    nodes: int
    seconds: float
    seats: int = field(default=3, repr=False)
    landlord: int = field(default=0, repr=False)
    search_seconds: float = field(default=0.0, repr=False)

    @property
    def scores(self) -> Optional[Tuple[int, ...]]:
        """Score mode: the settlement per seat (RULES.md §6, zero-sum): with three seats
        the landlord gets ``2 * value`` and each farmer ``-value``; with two, the
        landlord ``value`` and the other seat ``-value``. ``None`` otherwise."""
        if self.value is None:
            return None
        if self.seats == 3:
            return tuple(2 * self.value if s == self.landlord else -self.value for s in range(3))
        return tuple(self.value if s == self.landlord else -self.value for s in range(2))


_FIELDS = tuple(f.name for f in fields(Solution))



def pure_python() -> bool:
    """``True`` when the pure-Python solver answers (the compiled one is not loaded:
    ``DDZ_NO_EXTENSIONS=1``), read at each call."""
    return _solver is None

def _solution(*values) -> Solution:
    """``Solution(*values)`` without the frozen dataclass's ten ``object.__setattr__``
    calls (a third of a small solve's Python time)."""
    sol = object.__new__(Solution)
    sol.__dict__.update(zip(_FIELDS, values))
    return sol


def _unknown(pos: Position, nodes: int, t0: float) -> Solution:
    return Solution(False, None, None, [], [], None, nodes, time.perf_counter() - t0,
                    pos.seats, pos.landlord)


NO_NODE_LIMIT = 1 << 62
"""A ``node_limit`` this large or larger is no limit (the search never gets there)."""

NO_TIME_LIMIT = 1e9
"""A ``time_limit`` of this many seconds (about 32 years) or more, ``inf`` included, is
no limit."""


def _limit_arg(value, what: str, kind) -> Optional[float]:
    """A node (``kind=int``) or time limit: ``None`` (none) or a positive number;
    :data:`NO_NODE_LIMIT` / :data:`NO_TIME_LIMIT` and beyond mean none."""
    if value is None:
        return None
    if isinstance(value, bool) or not (is_integer(value) if kind is int else isinstance(value, numbers.Real)):
        raise DdzError(f"{what} must be {'an integer' if kind is int else 'a number'} or None, got {quote(value)}")
    if not value > 0 or value != value:
        raise DdzError(f"{what} must be positive, got {quote(value)}")
    if value >= (NO_NODE_LIMIT if kind is int else NO_TIME_LIMIT):
        return None
    return kind(value)


def solve(position: Position, *, score: bool = False, all_moves: bool = False,
          node_limit: Optional[int] = None, time_limit: Optional[float] = None,
          threads: int = 1, table_mb: float = DEFAULT_TABLE_MB,
          progress: Optional[Callable[[int, float], None]] = None,
          cancel=None, pv_plies: Optional[int] = None) -> Solution:
    """Solve a perfect-information position exactly (RULES.md §5 play, §6 score).

    :param position: a :class:`ddz.Position` (two or three seats).
    :param score: ``False``: who wins; ``True``: the score under best play (each side
        maximises its own signed score; :attr:`Solution.value`).
    :param all_moves: report every winning (score mode: every best) move of the side
        to move, not only the first.
    :param node_limit: stop after about this many positions (int > 0, ``None``: no
        limit; :data:`NO_NODE_LIMIT` or more: none either); a stopped search answers
        ``exact=False``.
    :param time_limit: stop after about this many seconds (> 0, ``None``: no limit;
        :data:`NO_TIME_LIMIT` or more, ``inf`` included: none either).
    :param threads: threads that search (an int >= 0, 0 for every usable CPU, at most the
        usable CPUs: :func:`ddz.core.parallel.threads_arg`): helpers join the calling thread once
        a search has run 32,768 positions (a small search never pays for them), at most
        one per usable CPU but the caller's, all on the caller's one table (lock-free,
        checksummed entries; simplified ABDADA: a thread defers the moves, but a node's
        first, that another is searching). The answer (``win``, ``value``, ``moves``, ``pv``) is the same for
        every thread count (the reported move and line are decided by the move order
        alone, after the search), only ``nodes`` and ``seconds`` differ.
    :param table_mb: the most the transposition table may grow to, MiB (1 to 2**20;
        default :data:`DEFAULT_TABLE_MB`, whose docstring says how the table grows within
        the memory the system can give), shared by the threads of a call; any other
        size larger than the memory the system has available (Linux ``MemAvailable``)
        is a :class:`ddz.TableMemoryError`, as is one the kernel refuses. The pure-Python
        solver (``DDZ_NO_EXTENSIONS=1``) keeps no table: there the range alone is checked.
    :param progress: called about four times a second with ``(nodes, seconds)`` while a
        long search runs, from the calling thread.
    :param cancel: ``None``, or a handle with an ``is_set()`` method (a
        :class:`threading.Event`): once it is set (from any thread), the search stops
        within about 10,000 positions and ``solve`` returns a not-exact
        :class:`Solution` (every answer field ``None`` or empty). Already set: returns
        at once.
    :param pv_plies: build the principal variation (:attr:`Solution.pv`) this many plies
        deep at most (an int >= 0; ``None``: to the end of the hand). The reported move
        is found either way; a short line saves the searches of the later plies (most
        of a small position's time).
    :returns: a :class:`Solution`.
    :raises KeyboardInterrupt: Ctrl-C while ``solve`` runs in the main thread: the
        search (which runs in the calling thread and looks for Ctrl-C, ``cancel`` and
        ``progress`` every ~10,000 positions) stops at once, and the interrupt
        propagates with the positions searched in its ``nodes`` attribute; nothing it
        found is kept as an answer. An exception raised by ``progress`` or
        ``cancel.is_set`` propagates the same way.
    :raises DdzError: ``position`` is not a Position; a bad limit, thread count, table
        size or ``cancel``; under ``DDZ_NO_EXTENSIONS=1`` a position of more than
        :data:`PURE_PYTHON_MAX_CARDS` cards with no limit.
    :raises TableMemoryError: the table does not fit in memory (``table_mb``).
    """
    t0 = time.perf_counter()
    if type(position) is not Position and not isinstance(position, Position):
        raise DdzError(f"solve() takes a ddz.Position, not {type(position).__name__}: {quote(position)}")
    if type(score) is not bool or type(all_moves) is not bool:
        for name, flag in (("score", score), ("all_moves", all_moves)):
            if not isinstance(flag, bool):
                raise DdzError(f"{name} must be True or False, got {quote(flag)}")
    if node_limit is not None:
        node_limit = _limit_arg(node_limit, "node_limit", int)
    if time_limit is not None:
        time_limit = _limit_arg(time_limit, "time_limit", float)
    if type(threads) is not int or threads != 1:
        threads = threads_arg(threads)      # 0: every usable CPU; at most the usable CPUs
    if table_mb is not DEFAULT_TABLE_MB:
        _table_mb_arg(table_mb)
    if progress is not None and not callable(progress):
        raise DdzError(f"progress must be callable or None, got {quote(progress)}")
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise DdzError(f"cancel must be None or have an is_set() method (a threading.Event), got {quote(cancel)}")
    pv_max = _PV_MAX if pv_plies is None else _pv_plies_arg(pv_plies)
    pos = position
    if pos.over:
        lw = pos.landlord_wins
        return Solution(True, lw, lw == (pos.to_move == pos.landlord), [], [],
                        pos.final_score() if score else None, 0, time.perf_counter() - t0,
                        pos.seats, pos.landlord)
    if cancel is not None and cancel.is_set():
        return _unknown(pos, 0, t0)
    if _solver is None:
        sol = _solve_reference(pos, score, all_moves, node_limit, time_limit, t0, progress, cancel)
        if sol.exact and len(sol.pv) > pv_max:
            sol.__dict__["pv"] = sol.pv[:pv_max]
        return sol
    if progress is None and cancel is None and threads == 1:
        # no poll and no helpers: the search and the Solution are built in C
        cur = getattr(_local, "searcher", None)
        s = cur[1] if cur is not None and cur[0] == table_mb and not cur[1].busy else _searcher(table_mb)
        try:
            return s.solve_position(pos, score, all_moves, node_limit, time_limit or 0.0, _FEATURES,
                                    pv_max, t0)
        except KeyboardInterrupt as exc:
            exc.nodes = s.nodes
            raise
    return _solve_compiled(pos, score, all_moves, node_limit, time_limit, threads, table_mb,
                           t0, progress, cancel, pv_max)


def _pv_plies_arg(value) -> int:
    if isinstance(value, bool) or not is_integer(value) or value < 0:
        raise DdzError(f"pv_plies must be an integer >= 0 or None, got {quote(value)}")
    return min(int(value), _PV_MAX)


def solve_batch(positions, *, score: bool = False, all_moves: bool = False,
                node_limit: Optional[int] = None, time_limit: Optional[float] = None,
                table_mb: float = DEFAULT_TABLE_MB, pv_plies: Optional[int] = None) -> List[Solution]:
    """Solve many positions one after the other in the calling thread: ``[solve(p, ...)
    for p in positions]`` with the same answers, but the arguments checked once and the
    loop, the searches and the :class:`Solution` objects in C (no Python per position):
    for the many small solves of a bot's sampled endgames (RULES.md §5, §6).

    :param positions: a sequence (list, tuple) of :class:`ddz.Position`.
    :param score, all_moves, node_limit, time_limit, table_mb, pv_plies: as
        :func:`solve`; a limit applies to each position.
    :returns: a list of :class:`Solution`, in the order given.
    :raises DdzError: ``positions`` is not a sequence of Positions (the first that is not
        is named by its index), or a bad argument as :func:`solve` says.
    :raises TableMemoryError: the table does not fit in memory.
    :raises KeyboardInterrupt: Ctrl-C (between positions, or inside a long search).
    """
    if isinstance(positions, (str, bytes, collections.abc.Mapping)) or not hasattr(positions, "__len__") or \
            not hasattr(positions, "__getitem__"):
        raise DdzError(f"solve_batch() takes a sequence of ddz.Position, not {type(positions).__name__}")
    for name, flag in (("score", score), ("all_moves", all_moves)):
        if not isinstance(flag, bool):
            raise DdzError(f"{name} must be True or False, got {quote(flag)}")
    node_limit = _limit_arg(node_limit, "node_limit", int)
    time_limit = _limit_arg(time_limit, "time_limit", float)
    if table_mb is not DEFAULT_TABLE_MB:
        _table_mb_arg(table_mb)
    pv_max = _PV_MAX if pv_plies is None else _pv_plies_arg(pv_plies)
    if _solver is None:
        return [solve(p, score=score, all_moves=all_moves, node_limit=node_limit, time_limit=time_limit,
                      table_mb=table_mb, pv_plies=pv_plies) for p in _checked_positions(positions)]
    cur = getattr(_local, "searcher", None)
    s = cur[1] if cur is not None and cur[0] == table_mb and not cur[1].busy else _searcher(table_mb)
    try:
        return s.batch(positions, score, all_moves, node_limit, time_limit or 0.0, _FEATURES, pv_max,
                       lambda p: solve(p, score=score))
    except KeyboardInterrupt as exc:
        exc.nodes = s.nodes
        raise
    except TypeError as exc:
        if str(exc).startswith("positions["):
            raise DdzError(f"solve_batch(): {exc}") from None
        raise


def _checked_positions(positions):
    for i, p in enumerate(positions):
        if not isinstance(p, Position):
            raise DdzError(f"solve_batch(): positions[{i}] is not a ddz.Position: {type(p).__name__}")
    return positions


def _move_order(play: Play):
    """RULES.md §2.3 move order: the pass first, then :attr:`Play.sort_key`."""
    return (bool(play), play.sort_key)


# -- the compiled path ----------------------------------------------------------------

_FEATURES = 259             # the search's optional prunings (ddz.search._solver FEAT_*: control-win, relabelled
                            # keys, win mode inside score mode; bench_solver.py toggles them)
_local = threading.local()
_PLAYS = {}                 # code -> Play (plays do not depend on the rule set)


def _play(code: int) -> Play:
    p = _PLAYS.get(code)
    if p is None:
        p = _PLAYS[code] = _trusted_play(code)     # a code the search generated
    return p


def _available_mb() -> Optional[float]:
    """MiB of memory the system can still give (Linux ``MemAvailable``), or ``None``."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


_usable_cpus = usable_cpus      # the CPUs this process may run on (threads beyond them cannot help)


def check_table_memory(table_mb: float, tables: int = 1) -> None:
    """Check, before any is allocated, that ``tables`` transposition tables of
    ``table_mb`` MiB each fit: ``table_mb`` from 1 to 2**20 and their total within the
    memory the system can still give (Linux ``MemAvailable``; not checked elsewhere).
    For a program that keeps several solvers (``ddz serve``'s worker processes).

    :raises DdzError: ``table_mb`` out of range.
    :raises TableMemoryError: the tables do not fit in memory.
    """
    _table_mb_arg(table_mb)
    _check_fits(table_mb, tables)


def _table_mb_arg(table_mb: Any) -> None:
    """:class:`DdzError` unless ``table_mb`` is a number of MiB from 1 to 2**20."""
    if isinstance(table_mb, bool) or not isinstance(table_mb, numbers.Real) or not 1 <= float(table_mb) <= MAX_TABLE_MB:
        raise DdzError(f"table_mb must be a number of MiB from 1 to {MAX_TABLE_MB}, got {quote(table_mb)}")


def _check_fits(mb: float, tables: int) -> None:
    """:class:`TableMemoryError` when ``tables`` tables of ``mb`` MiB exceed the memory
    the system can still give (not checked where it does not say)."""
    avail = _available_mb()
    if avail is not None and mb * tables > avail:
        what = (f"a {mb:,.10g} MiB transposition table (table_mb) does" if tables == 1 else
                f"{tables} transposition tables of {mb:,.10g} MiB (table_mb) do")
        raise TableMemoryError(f"{what} not fit in the {avail:,.0f} MiB of memory available; "
                               "choose a smaller table_mb")


def _searcher(mb: float):
    """This thread's searcher with a table of ``mb`` MiB (one kept per thread: a new
    size frees the old table first); :class:`TableMemoryError` when the table cannot be
    allocated or would not fit in the memory the system has left. The default cap is
    mapped whatever the memory (its growth checks it), halved until the kernel maps it.
    A call from inside a running search of this thread (its ``progress`` or ``cancel``)
    gets a searcher of its own, not kept."""
    cur = getattr(_local, "searcher", None)
    nested = cur is not None and cur[1].busy
    if cur is not None and cur[0] == mb and not nested:
        return cur[1]
    if not nested:
        _local.searcher = None        # free the old table first
    size = mb
    if mb != DEFAULT_TABLE_MB:
        _check_fits(mb, 1)
    while True:
        try:
            s = _solver.Searcher(size)
            break
        except MemoryError:
            if mb != DEFAULT_TABLE_MB or size <= 64:
                raise TableMemoryError(f"cannot allocate a {mb:,.10g} MiB transposition table (table_mb); "
                                       "choose a smaller table_mb") from None
            size /= 2
    if not nested:
        _local.searcher = (mb, s)
    return s


_HELPERS = []
_HELP_AFTER = 1 << 15       # helpers join a search once it has searched this many nodes (~10 ms)


def _helpers() -> concurrent.futures.ThreadPoolExecutor:
    """The pool of helper threads of parallel searches (one per usable CPU but the
    caller's; each keeps its own helper searcher)."""
    if not _HELPERS or _HELPERS[0] != os.getpid():         # none yet, or a forked child's copy
        _HELPERS[:] = [os.getpid(), concurrent.futures.ThreadPoolExecutor(
            max(1, _usable_cpus() - 1), thread_name_prefix="ddz-solve")]
    return _HELPERS[1]


def _help(main) -> int:
    h = getattr(_local, "helper", None)
    if h is None:
        h = _local.helper = _solver.Searcher(0)
    return h.help(main)


class _Job:
    """One :func:`solve` call on the compiled search: the searcher's poll (cancel,
    progress, and the helpers of ``threads > 1``, started once the search has run
    :data:`_HELP_AFTER` nodes: a small search never pays for them)."""

    __slots__ = ("s", "t0", "progress", "cancel", "shown", "helpers", "futures", "done_nodes")

    def __init__(self, s, t0, progress, cancel, helpers):
        self.s = s
        self.t0 = t0
        self.progress = progress
        self.cancel = cancel
        self.shown = t0
        self.helpers = helpers
        self.futures = []
        self.done_nodes = 0

    def poll(self):
        if self.helpers and self.s.nodes >= _HELP_AFTER:
            self.s.share()
            pool = _helpers()
            self.futures = [pool.submit(_help, self.s) for _ in range(self.helpers)]
            self.helpers = 0
        if self.cancel is not None and self.cancel.is_set():
            return True
        if self.progress is not None:
            now = time.perf_counter()
            if now - self.shown >= _PROGRESS_EVERY:
                self.shown = now
                self.progress(self.nodes(), now - self.t0)
        return False

    def nodes(self) -> int:
        return self.s.nodes + self.done_nodes

    def join(self):
        """Wait for the helpers (stopped when the root search ended) and count their
        nodes; a helper still queued (the pool busy with another caller's search) is
        cancelled, not waited for."""
        for f in self.futures:
            if not f.cancel():
                self.done_nodes += f.result()
        self.futures = []


def _solve_compiled(pos: Position, score, all_moves, node_limit, time_limit, threads, mb, t0,
                    progress, cancel, pv_max=_PV_MAX) -> Solution:
    cur = getattr(_local, "searcher", None)
    s = cur[1] if cur is not None and cur[0] == mb and not cur[1].busy else _searcher(mb)
    s.reset(pos.rules, len(pos.hands), pos.landlord, score, 0, _FEATURES)
    job = None
    if progress is not None or cancel is not None or threads > 1:
        job = _Job(s, t0, progress, cancel, min(threads, _usable_cpus()) - 1)
        s.set_poll(job.poll)
    tb = pos.to_beat
    try:
        value, exact, codes, line = s.solve(
            pos.hands, pos.to_move, 0 if tb is None else tb.code,
            -1 if pos.last_player is None else pos.last_player, pos.landlord_plays,
            pos.farmers_played, all_moves, node_limit, time_limit or 0.0)
    except KeyboardInterrupt as exc:
        if job is not None:
            job.join()
        exc.nodes = s.nodes + (job.done_nodes if job is not None else 0)
        raise
    finally:
        if job is not None:
            job.join()
            s.set_poll(None)
        s.release()         # the pages past 64 MiB go back (helpers joined)
    nodes = s.nodes if job is None else s.nodes + job.done_nodes
    if not exact:
        return _unknown(pos, nodes, t0)
    plays = _PLAYS
    for c in line:
        if c not in plays:
            _play(c)
    moves = [plays[c] if c in plays else _play(c) for c in codes]
    if all_moves:
        moves.sort(key=_move_order)
    lw = value > 0
    return _solution(True, lw, lw == (pos.to_move == pos.landlord), moves, [plays[c] for c in line[:pv_max]],
                     value * pos.base * pos.multiplier if score else None, nodes,
                     time.perf_counter() - t0, len(pos.hands), pos.landlord, s.search_seconds)


if _solver is not None:
    _solver._configure(Solution, _FIELDS, _PLAYS, _play, _move_order, Position, time.perf_counter)


# -- the pure-Python path ----------------------------------------------------------------

def _solve_reference(pos: Position, score, all_moves, node_limit, time_limit, t0, progress=None,
                     cancel=None) -> Solution:
    """``DDZ_NO_EXTENSIONS=1``: the reference minimax with a memo; ``progress`` is
    called and ``cancel`` checked from the search's ``tick``; a
    :class:`KeyboardInterrupt` gets the positions searched so far as its ``nodes``
    attribute."""
    total = sum(pos.cards_left)
    if node_limit is None and time_limit is None and total > PURE_PYTHON_MAX_CARDS:
        raise DdzError(
            f"the position has {total} cards; without the compiled extensions (DDZ_NO_EXTENSIONS=1) "
            f"solve() takes at most {PURE_PYTHON_MAX_CARDS} without a node_limit or time_limit")
    memo = {}
    nodes = 0
    deadline = None if time_limit is None else t0 + time_limit
    shown = [t0]

    def tick(n):
        ticked[0] = n
        if cancel is not None and cancel.is_set():
            raise LimitReached
        now = time.perf_counter()
        if progress is not None and now - shown[0] >= _PROGRESS_EVERY:
            shown[0] = now
            progress(nodes + n, now - t0)

    ticked = [0]

    def run(p: Position):
        nonlocal nodes
        left_nodes = None if node_limit is None else node_limit - nodes
        left_time = None if deadline is None else deadline - time.perf_counter()
        if (left_nodes is not None and left_nodes <= 0) or (left_time is not None and left_time <= 0) \
                or (cancel is not None and cancel.is_set()):
            raise LimitReached
        r = ref_solve(p.hands, p.landlord, p.to_move, p.to_beat, p.last_player, p.rules,
                      score=score, landlord_plays=p.landlord_plays,
                      farmers_played=p.farmers_played, node_limit=left_nodes,
                      time_limit=left_time, memo=memo, tick=tick)
        nodes += r.nodes
        ticked[0] = 0
        return r

    try:
        r = run(pos)
        value = r.value
        landlord_wins = value > 0
        win = landlord_wins == (pos.to_move == pos.landlord)
        chosen = r.best if (score or win) else []
        if not all_moves:
            chosen = chosen[:1]
        line = []
        p = pos
        while not p.over and len(line) < _PV_MAX:
            rr = run(p)
            move = rr.best[0]
            line.append(move)
            p = p.after(move)
    except LimitReached:
        return _unknown(pos, nodes + ticked[0], t0)
    except KeyboardInterrupt as exc:
        exc.nodes = nodes + ticked[0]
        raise
    dt = time.perf_counter() - t0
    return Solution(True, landlord_wins, win, list(chosen), line,
                    value * pos.base * pos.multiplier if score else None, nodes,
                    dt, pos.seats, pos.landlord, dt)
