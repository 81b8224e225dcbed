"""The endgame solver: :func:`solve` a perfect-information :class:`ddz.Position` (issue 12).

Two seats (the classic 残局 puzzle: two open hands, a pass ends the trick) or three (the
real game: the landlord against two farmers who play as one side; a trick ends after
two passes), RULES.md §5. Win mode answers who wins under best play by both sides; score
mode (``score=True``) the signed score of RULES.md §6 from the landlord's side, each side
maximising its own result (bombs, the rocket, spring and anti-spring still to come).

The search is :mod:`ddz._solver` (Cython, ``nogil``: alpha-beta with a transposition
table of ``table_mb`` MiB per thread, verified against the full state; see its
docstring). Each thread keeps its table between calls (one table per thread and size:
memory stays bounded by ``threads * table_mb`` MiB, plus the move lists). With
``DDZ_NO_EXTENSIONS=1`` the pure-Python :mod:`ddz.reference_solver` answers instead
(with a memo of solved positions): fine for a few cards, slow beyond; without a node or
time limit it refuses positions of more than :data:`PURE_PYTHON_MAX_CARDS` cards
(a :class:`ddz.DdzError`) rather than run for hours.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple

from . import tables
from ._compiled import compiled
from .cards import is_integer
from .errors import DdzError, TableMemoryError, quote
from .play import Play, PlayType
from .position import Position
from .reference_solver import LimitReached, ref_solve

__all__ = ["Solution", "solve", "PURE_PYTHON_MAX_CARDS", "DEFAULT_TABLE_MB"]

_solver = compiled("_solver", "the compiled solver (ddz._solver)")

DEFAULT_TABLE_MB = 64
"""The default transposition table size per thread, MiB."""

PURE_PYTHON_MAX_CARDS = 14
"""Under ``DDZ_NO_EXTENSIONS=1``, the most cards (all hands together) :func:`solve`
takes without a node or time limit."""

_INF = 1 << 30
_PROGRESS_EVERY = 0.25     # seconds between progress calls
_BOMBS = (PlayType.BOMB, PlayType.ROCKET)
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
    :ivar seconds: wall time of the call.
    :ivar seats, landlord: the position's seat count and landlord (for :attr:`scores`).
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


def _unknown(pos: Position, nodes: int, t0: float) -> Solution:
    return Solution(False, None, None, [], [], None, nodes, time.perf_counter() - t0,
                    pos.seats, pos.landlord)


def _limit_arg(value, what: str, kind) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not (is_integer(value) if kind is int else isinstance(value, (int, float))):
        raise DdzError(f"{what} must be {'an integer' if kind is int else 'a number'} or None, got {quote(value)}")
    if not value > 0 or value != value:
        raise DdzError(f"{what} must be positive, got {quote(value)}")
    return kind(value)


def solve(position: Position, *, score: bool = False, all_moves: bool = False,
          node_limit: Optional[int] = None, time_limit: Optional[float] = None,
          threads: int = 1, table_mb: float = DEFAULT_TABLE_MB,
          progress: Optional[Callable[[int, float], None]] = None,
          cancel=None) -> Solution:
    """Solve a perfect-information position exactly (RULES.md §5 play, §6 score).

    :param position: a :class:`ddz.Position` (two or three seats).
    :param score: ``False``: who wins; ``True``: the score under best play (each side
        maximises its own signed score; :attr:`Solution.value`).
    :param all_moves: report every winning (score mode: every best) move of the side
        to move, not only the first.
    :param node_limit: stop after about this many positions (int > 0, ``None``: no
        limit); a stopped search answers ``exact=False``.
    :param time_limit: stop after about this many seconds (> 0, ``None``: no limit).
    :param threads: threads that split the root moves (>= 1); the answer (``win``,
        ``value``, ``moves``, ``pv``) is the same for every thread count, only
        ``nodes`` and ``seconds`` differ. Each thread has its own table.
    :param table_mb: transposition table size per thread in MiB (>= 1; default
        :data:`DEFAULT_TABLE_MB`); memory use is bounded by ``threads * table_mb``.
    :param progress: called about four times a second with ``(nodes, seconds)`` while a
        long search runs, from the calling thread.
    :param cancel: ``None``, or a handle with an ``is_set()`` method (a
        :class:`threading.Event`): once it is set (from any thread), the search stops
        within about 10,000 positions and ``solve`` returns a not-exact
        :class:`Solution` (every answer field ``None`` or empty). Already set: returns
        at once.
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
    """
    t0 = time.perf_counter()
    if not isinstance(position, Position):
        raise DdzError(f"solve() takes a ddz.Position, not {type(position).__name__}: {quote(position)}")
    for name, flag in (("score", score), ("all_moves", all_moves)):
        if not isinstance(flag, bool):
            raise DdzError(f"{name} must be True or False, got {quote(flag)}")
    node_limit = _limit_arg(node_limit, "node_limit", int)
    time_limit = _limit_arg(time_limit, "time_limit", float)
    if isinstance(threads, bool) or not is_integer(threads) or not 1 <= threads <= 256:
        raise DdzError(f"threads must be an integer 1..256, got {quote(threads)}")
    if isinstance(table_mb, bool) or not isinstance(table_mb, (int, float)) or not 1 <= table_mb <= 1 << 20:
        raise DdzError(f"table_mb must be a number of MiB from 1 to {1 << 20}, got {quote(table_mb)}")
    if progress is not None and not callable(progress):
        raise DdzError(f"progress must be callable or None, got {quote(progress)}")
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise DdzError(f"cancel must be None or have an is_set() method (a threading.Event), got {quote(cancel)}")
    pos = position
    if pos.over:
        lw = pos.landlord_wins
        return Solution(True, lw, lw == (pos.to_move == pos.landlord), [], [],
                        pos.final_score() if score else None, 0, time.perf_counter() - t0,
                        pos.seats, pos.landlord)
    if cancel is not None and cancel.is_set():
        return _unknown(pos, 0, t0)
    if _solver is None:
        return _solve_reference(pos, score, all_moves, node_limit, time_limit, t0, progress, cancel)
    job = _Job(pos, score, all_moves, node_limit, time_limit, int(threads), float(table_mb), t0,
               progress, cancel)
    try:
        return job.run()
    except KeyboardInterrupt as exc:
        exc.nodes = job.nodes()
        raise


def _move_order(play: Play):
    """RULES.md §2.3 move order: the pass first, then :attr:`Play.sort_key`."""
    return (bool(play), play.sort_key)


# -- the compiled path ----------------------------------------------------------------

_local = threading.local()


def _new_searcher(table, mb: float):
    """A compiled searcher with a table of ``mb`` MiB; :class:`TableMemoryError` when the
    table cannot be allocated."""
    try:
        return _solver.Searcher(table, mb)
    except MemoryError:
        raise TableMemoryError(f"cannot allocate a {mb:,.10g} MiB transposition table (table_mb); "
                               "choose a smaller table_mb") from None


def _searcher(table, mb: float):
    """This thread's searcher for ``table`` and ``mb`` (one kept per thread)."""
    key = (id(table), mb)
    cur = getattr(_local, "searcher", None)
    if cur is None or cur[0] != key:
        _local.searcher = None            # free the old table first
        _local.searcher = cur = (key, _new_searcher(table, mb), table)
    return cur[1]


class _Job:
    """One :func:`solve` call on the compiled search."""

    def __init__(self, pos, score, all_moves, node_limit, time_limit, threads, mb, t0,
                 progress=None, cancel=None):
        self.pos = pos
        self.progress = progress
        self.cancel_handle = cancel
        self.shown = t0
        self.score = score
        self.all_moves = all_moves
        self.node_limit = node_limit
        self.deadline = None if time_limit is None else t0 + time_limit
        self.threads = threads
        self.mb = mb
        self.t0 = t0
        self.table = tables.table(pos.rules)
        self.searchers = []
        self.cancelled = False
        self.lock = threading.Lock()
        self.window = (-_INF, _INF) if score else (-1, 1)
        self.caller = threading.current_thread()

    # state tuples: (hands, to_move, to_beat code, last seat or -1, landlord plays, farmers played)
    def root(self):
        p = self.pos
        return (p.hands, p.to_move, p.to_beat.code if p.to_beat else 0,
                -1 if p.last_player is None else p.last_player, p.landlord_plays, p.farmers_played)

    def child(self, state, code: int, play: Play):
        """(terminal value or None, child state) after the seat to move plays ``code``."""
        hands, p, tb, last, lp, fp = state
        seats = len(hands)
        if code == 0:
            nxt = (p + 1) % seats
            if nxt == last:
                return None, (hands, nxt, 0, -1, lp, fp)
            return None, (hands, nxt, tb, last, lp, fp)
        lord = self.pos.landlord
        hand = tuple(h - c for h, c in zip(hands[p], play.counts))
        if p == lord:
            lp += 1
        else:
            fp = True
        if not any(hand):
            if p == lord:
                return (2 if self.score and not fp else 1), None
            return (-2 if self.score and lp == 1 else -1), None
        return None, (hands[:p] + (hand,) + hands[p + 1:], (p + 1) % seats, code, p, lp, fp)

    def limits(self, s):
        """(node limit, seconds) left for the next search, or None when spent."""
        nl = None
        if self.node_limit is not None:
            nl = self.node_limit - self.nodes()
            if nl <= 0:
                return None
        tl = 0.0
        if self.deadline is not None:
            tl = self.deadline - time.perf_counter()
            if tl <= 0:
                return None
        if self.cancelled or (self.cancel_handle is not None and self.cancel_handle.is_set()):
            return None
        return nl, tl

    def poll(self):
        """The searcher's poll (every ~8192 positions, in the calling thread; with
        ``threads > 1`` five times per progress period, while the helpers search): cancel
        and progress. True: stop."""
        if self.cancel_handle is not None and self.cancel_handle.is_set():
            self.cancel()
            return True
        if self.progress is not None:
            now = time.perf_counter()
            if now - self.shown >= _PROGRESS_EVERY:
                self.shown = now
                self.progress(self.nodes(), now - self.t0)
        return False

    def poll_cancel(self):
        """The poll of a helper thread's searcher: cancel only."""
        return self.cancel_handle is not None and self.cancel_handle.is_set()

    def search(self, s, state, alpha, beta):
        """(value, exact) of one state with searcher ``s``."""
        lim = self.limits(s)
        if lim is None:
            return 0, False
        return s.value(state[0], state[1], state[2], state[3], state[4], state[5], alpha, beta,
                       lim[0], lim[1], threading.current_thread() is not self.caller)

    def move_reaches(self, s, state, code, play, target):
        """Does ``play`` reach the value ``target`` (exactly)? ``(bool, exact)``."""
        v, child = self.child(state, code, play)
        bomb = self.score and play.type in _BOMBS
        if bomb:
            if target % 2:
                return False, True
            target //= 2
        if v is None:
            if self.score:
                v, ok = self.search(s, child, target - 1, target + 1)
            else:
                v, ok = self.search(s, child, -1, 1)
            if not ok:
                return False, False
        return v == target, True

    def plays_of(self, codes):
        t = self.table
        return [t.plays[t.index_of(c)] for c in codes]

    def best_moves(self, s, state, value, first_only):
        """The moves of ``state`` that reach ``value``: (list of (code, play), exact)."""
        hands, p = state[0], state[1]
        codes = s.ordered_moves(hands, p, state[2], state[3])
        out = []
        for code, play in zip(codes, self.plays_of(codes)):
            hit, ok = self.move_reaches(s, state, code, play, value)
            if not ok:
                return out, False
            if hit:
                out.append((code, play))
                if first_only:
                    break
        return out, True

    def pv(self, s, state, value):
        line = []
        while len(line) < _PV_MAX:
            found, ok = self.best_moves(s, state, value, True)
            if not ok or not found:
                return line, ok
            code, play = found[0]
            line.append(play)
            v, state = self.child(state, code, play)
            if v is not None:
                return line, True
            if self.score and play.type in _BOMBS:
                value //= 2
        return line, True

    def nodes(self) -> int:
        return sum(s.nodes for s in self.searchers)

    def cancel(self):
        with self.lock:
            self.cancelled = True
            for s in self.searchers:
                s.stop()

    def new_searcher(self, mb):
        s = _searcher(self.table, mb) if self.threads == 1 else _new_searcher(self.table, mb)
        s.reset(self.pos.seats, self.pos.landlord, self.score)
        if self.threads == 1:
            s.set_poll(self.poll if self.progress is not None or self.cancel_handle is not None else None)
        else:     # the calling thread watches for Ctrl-C and runs progress (run_split)
            s.set_poll(self.poll_cancel if self.cancel_handle is not None else None)
        with self.lock:
            self.searchers.append(s)
            if self.cancelled:
                s.stop()
        return s

    def finish(self, s, value, moves_found=None):
        """The exact Solution of root value ``value`` (``moves_found``: the reported
        moves when already known)."""
        pos = self.pos
        state = self.root()
        landlord_wins = value > 0
        win = landlord_wins == (pos.to_move == pos.landlord)
        if moves_found is None:
            if self.score or win:
                found, ok = self.best_moves(s, state, value, not self.all_moves)
                if not ok:
                    return _unknown(pos, self.nodes(), self.t0)
                moves_found = [p for _, p in found]
            else:
                moves_found = []
        line, ok = self.pv(s, state, value)
        if not ok:
            return _unknown(pos, self.nodes(), self.t0)
        if self.all_moves:
            moves_found = sorted(moves_found, key=_move_order)
        return Solution(True, landlord_wins, win, moves_found, line,
                        value * pos.base * pos.multiplier if self.score else None,
                        self.nodes(), time.perf_counter() - self.t0, pos.seats, pos.landlord)

    def run(self) -> Solution:
        if self.threads == 1:
            return self.run_single()
        return self.run_split()

    def run_single(self) -> Solution:
        s = self.new_searcher(self.mb)
        value, ok = self.search(s, self.root(), *self.window)
        if not ok:
            return _unknown(self.pos, self.nodes(), self.t0)
        return self.finish(s, value)

    def run_split(self) -> Solution:
        """Split the root moves over threads: each root move is searched exactly (win
        mode: once a move wins, the later ones stop; the earlier ones run to the end),
        and the first best move in search order is the answer, as with one thread."""
        from concurrent.futures import ThreadPoolExecutor
        import queue

        pos = self.pos
        mb = max(1.0, self.mb)
        state = self.root()
        pool = queue.Queue()
        for _ in range(self.threads):
            pool.put(self.new_searcher(mb))
        s0 = pool.queue[0]
        codes = s0.ordered_moves(state[0], state[1], state[2], state[3])
        plays = self.plays_of(codes)
        maxing = pos.to_move == pos.landlord
        results: List[Optional[Tuple[int, object]]] = [None] * len(codes)
        running = {}
        first_win = [len(codes)]
        failed = [False]

        def task(i):
            with self.lock:
                if (not self.score and not self.all_moves and i > first_win[0]) or self.cancelled:
                    return
                s = pool.get()
                s.clear_stop()
                running[i] = s
            try:
                v, child = self.child(state, codes[i], plays[i])
                ok = True
                if v is None:
                    v, ok = self.search(s, child, *self.window)
                if ok and self.score and plays[i].type in _BOMBS:
                    v *= 2
            finally:
                with self.lock:
                    del running[i]
                    pool.put(s)
            with self.lock:
                if not ok:
                    if not (i > first_win[0]):     # not a cancelled later move: a limit
                        failed[0] = True
                    return
                results[i] = (v, s)
                if not self.score and not self.all_moves and (v > 0) == maxing and i < first_win[0]:
                    first_win[0] = i
                    for j, other in running.items():
                        if j > i:
                            other.stop()

        with ThreadPoolExecutor(self.threads) as ex:
            futures = [ex.submit(task, i) for i in range(len(codes))]
            try:
                while concurrent.futures.wait(futures, _PROGRESS_EVERY / 5).not_done:
                    if self.poll():
                        break
            except BaseException:      # Ctrl-C (or progress raised): stop the helpers first
                self.cancel()
                raise
            for f in futures:
                f.result()
        if failed[0] or self.cancelled:
            return _unknown(pos, self.nodes(), self.t0)
        for x in self.searchers:          # the stops were for cancelled later moves
            x.clear_stop()
        if not self.score and not self.all_moves:
            i = first_win[0]
            if i < len(codes):
                value, s = results[i]
                return self.finish(s, value, [plays[i]])
            if any(r is None for r in results):
                return _unknown(pos, self.nodes(), self.t0)
            value, s = results[0]
            return self.finish(s, value, [])     # every move loses
        if any(r is None for r in results):
            return _unknown(pos, self.nodes(), self.t0)
        vals = [r[0] for r in results]
        value = max(vals) if maxing else min(vals)
        best = [i for i, v in enumerate(vals) if v == value]
        if not self.score and (value > 0) != maxing:
            chosen = []
        else:
            chosen = [plays[i] for i in (best if self.all_moves else best[:1])]
        return self.finish(results[best[0]][1], value, chosen)


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
        p, v = pos, value
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
    return Solution(True, landlord_wins, win, list(chosen), line,
                    value * pos.base * pos.multiplier if score else None, nodes,
                    time.perf_counter() - t0, pos.seats, pos.landlord)
