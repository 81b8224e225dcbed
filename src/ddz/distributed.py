"""Scale-out with Ray (issue 13): self-play of many hands and solving of many positions,
fanned out over Ray tasks, with the same results in the same order for any number of
workers.

* :func:`selfplay` plays ``games`` hands (or matches) between named bots and returns their
  records (``docs/records.md``) in hand order. Hand ``i`` is played from its own seeds,
  derived from ``(seed, i)`` with :class:`numpy.random.SeedSequence` (:func:`hand_seeds`),
  and with bots made afresh for it: a record depends only on ``(seed, i)``, the bots and the
  rules, never on the worker that played it, the chunk it was in or the hands before it.
* :func:`solve_many` solves positions with :func:`ddz.solve` and returns the solutions in
  the order given.

``workers=None`` or ``1`` runs in this process and never imports Ray; ``workers >= 2``
(or ``ray=True``, with any count) sends chunks of hands (positions) to Ray remote tasks, at most ``workers`` at a time, and
gathers the results in order. If Ray is not initialised yet, ``ray.init(num_cpus=workers)``
starts a local cluster (it stays up for later calls; ``ray.shutdown()`` ends it); a
cluster already initialised (``ray.init(address=...)``) is used as it is.

``import ddz`` never imports this module or Ray; Ray is the optional extra
``pip install 'ddz[ray]'``.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any, Dict, Iterator, List, Optional, Sequence

import numpy as np

from .errors import DdzError, quote
from .core.parallel import solving_processes, threads_arg, usable_cpus
from .core.rules import STANDARD, Rules
from .search import registry

__all__ = ["hand_seeds", "selfplay", "iter_selfplay", "solve_many", "fan_out", "DEFAULT_CHUNK"]

DEFAULT_CHUNK = 256
"""Most hands per Ray task (a task costs about 1-4 ms, a hand 1-2 ms; the default chunk
is about a quarter of each worker's share; see ``bench/README.md``)."""

_WORDS = 5  # seed words drawn per hand: the deal, then one per seat (four at most)
_SOLVE_KEYS = ("score", "all_moves", "node_limit", "time_limit", "threads", "table_mb")


# -- arguments -------------------------------------------------------------------------

def _count(value, what: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise DdzError(f"{what} must be an integer >= {low}, got {quote(value)}")
    return int(value)


def _plan(workers, ray) -> int:
    """The Ray workers to use, 0 for this process (``ray=None``: Ray iff ``workers >= 2``)."""
    if ray is not None and not isinstance(ray, bool):
        raise DdzError(f"ray must be True, False or None, got {quote(ray)}")
    # 0: every usable CPU; Ray clusters of other machines may have more CPUs than this one
    n = None if workers is None else threads_arg(workers, name="workers", cap=False)
    if ray is False:
        if workers not in (None, 0, 1):
            raise DdzError(f"workers={n} needs Ray (ray=False plays in this process)")
        return 0
    if ray is True:
        return n or usable_cpus()
    return n if n is not None and n >= 2 else 0


def _bots(bots, rules: Rules) -> tuple:
    """The canonical spec text of each seat's bot (checked here, before any task starts)."""
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise DdzError(f"bots must be a list of bot specs, one per seat ({', '.join(registry.names())}, "
                       f"py:module:Class), got {quote(bots)}")
    names = []
    for i, name in enumerate(bots):
        try:
            spec = registry.check_spec(name)
        except DdzError as exc:
            raise DdzError(f"bots[{i}]: {exc}") from None
        if spec.kind == "protocol":
            raise DdzError(f"bots[{i}] is {quote(name)}: protocol programs play in the arena (ddz.arena.run)")
        names.append(spec.text)
    names = tuple(names)
    if len(names) != rules.seats:
        raise DdzError(f"bots names {len(names)} bots, but {rules.seats} players play (Rules.players)")
    return names


def _import_ray():
    try:
        import ray   # optional dependency (Ray)
    except ImportError as exc:
        raise DdzError(f"workers >= 2 (or ray=True) runs on Ray, which is not installed "
                       f"({exc}): pip install 'ddz[ray]'") from None
    return ray


_REMOTE: Dict[str, Any] = {}


def _remote(fn):
    """``ray.remote(fn)``, made once per function (Ray, already imported)."""
    if fn.__name__ not in _REMOTE:
        import ray   # optional dependency (Ray)
        _REMOTE[fn.__name__] = ray.remote(num_cpus=1)(fn)
    return _REMOTE[fn.__name__]


def _fan_out(fn, jobs: List[tuple], workers: int) -> Iterator[Any]:
    """``fn(*job)`` for every job on Ray, at most ``workers`` at a time; yields the results
    in job order as soon as each is there (a job that fails raises here, in order). Ray is
    imported and initialised at the call, the tasks start at the first ``next()``."""
    ray = _import_ray()
    if not ray.is_initialized():
        import logging   # start-up time: only when Ray starts
        workers = min(workers, usable_cpus())      # a local cluster: no more than this machine's CPUs
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.WARNING)    # no INFO lines on the command's stderr
    return _gather(ray, _remote(fn), jobs, max(1, min(workers, len(jobs))))


def fan_out(fn, jobs: List[tuple], workers: int) -> Iterator[Any]:
    """``fn(*job)`` for every job, on Ray remote tasks, at most ``workers`` at a time;
    yields the results in job order as each is there (the arena's ``ray=True`` and
    :func:`selfplay` use it). ``fn`` must be a module-level function (Ray pickles it by
    reference). Ray is initialised at the call if it is not (``ray.init(num_cpus=workers)``).

    :param fn: the function. :param jobs: argument tuples. :param workers: an int >= 0
        (:func:`ddz.core.parallel.threads_arg`: 0 every usable CPU; a local cluster started
        here has at most this machine's CPUs; never more at a time than the jobs).
    :returns: an iterator of the results; a job that raised re-raises here, in order (a
        :class:`ddz.DdzError` with its own message); closing it early cancels the tasks
        still running.
    :raises DdzError: Ray is not installed, or a bad ``workers``.
    """
    return _fan_out(fn, list(jobs), threads_arg(workers, name="workers", cap=False))


def _gather(ray, task, jobs: List[tuple], workers: int) -> Iterator[Any]:
    results: Dict[int, Any] = {}
    running: Dict[Any, int] = {}
    submitted = done = 0
    try:
        while done < len(jobs):
            while submitted < len(jobs) and len(running) < workers:
                running[task.remote(*jobs[submitted])] = submitted
                submitted += 1
            if done not in results:
                ready, _ = ray.wait(list(running), num_returns=1)
                for ref in ready:
                    results[running.pop(ref)] = ref
                continue
            try:
                value = ray.get(results.pop(done))
            except ray.exceptions.RayTaskError as exc:
                cause = getattr(exc, "cause", None)
                if isinstance(cause, DdzError):   # a bad argument: its own message
                    raise cause from None
                raise
            yield value
            done += 1
    finally:
        for ref in running:     # stopped early (an error, Ctrl-C, a generator closed)
            try:
                ray.cancel(ref)
            except Exception:   # pragma: no cover - the task may have finished meanwhile
                pass


# -- self-play -------------------------------------------------------------------------

def _unit_words(seed: int, index: int) -> List[int]:
    """The seed words of hand ``index``: 63-bit ints from ``SeedSequence(seed,
    spawn_key=(index,))``, the ``index``-th child of ``SeedSequence(seed)``."""
    state = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(_WORDS, np.uint64)
    return [int(w) >> 1 for w in state]


def hand_seeds(seed: int, games: int) -> List[int]:
    """The deal seed of each hand :func:`selfplay` plays: ``record["seed"]`` of hand ``i``
    (with ``match=``: the seed of match ``i``, :class:`ddz.Match`).

    Hand ``i``'s seeds come from ``numpy.random.SeedSequence(seed, spawn_key=(i,))`` (the
    ``i``-th child of ``SeedSequence(seed)``), so they depend only on ``(seed, i)``: the
    first ``k`` of ``hand_seeds(seed, n)`` are ``hand_seeds(seed, k)``.

    :param seed: an int >= 0. :param games: an int >= 0.
    :returns: ``games`` ints in ``[0, 2**63)``.
    :raises DdzError: a bad seed or count.
    """
    seed = _count(seed, "seed", 0)
    games = _count(games, "games", 0)
    return [_unit_words(seed, i)[0] for i in range(games)]


def _play_unit(seed: int, index: int, names: tuple, rules: Rules, match: Optional[int]) -> dict:
    """The record of hand (match) ``index``: bots made afresh from its seed words."""
    from .search import bots as _bots   # play_hand looked up per call (tests replace it)
    from .game.state import Game
    from .game.match import Match
    words = _unit_words(seed, index)
    players = [_bots.make_bot(name, words[1 + s]) for s, name in enumerate(names)]
    if not all(registry.is_seeded(name) for name in names):
        random.seed(words[0] ^ 0x5EED)       # other engines' agents draw from it: a record depends on (seed, i)
        np.random.seed(words[0] & 0xFFFFFFFF)
    if match is None:
        return _bots.play_hand(Game(rules, seed=words[0]), players).to_record()
    m = Match(rules, match, seed=words[0])
    while True:
        _bots.play_hand(m.game, players)
        if m.finished:
            return m.to_record()
        m.next_hand()


def _summary(record: dict) -> tuple:
    """What ``ddz selfplay`` sums up of one hand or match record: ``(hands, landlord wins,
    void hands, redeals, bombs, rockets, springs, anti-springs, scores per seat, match
    winners)``; match winners are the seats of the highest total (``()`` for a hand)."""
    games = record["games"] if record.get("format") == "ddz-match" else [record]
    out = [len(games), 0, 0, 0, 0, 0, 0, 0]
    scores = [0] * len(games[0]["result"]["scores"])
    for g in games:
        r = g["result"]
        for k, v in enumerate((r["winner"] == "landlord", bool(r["void"]), len(g["deals"]) - 1,
                               r["bombs"], r["rockets"], bool(r["spring"]), bool(r["anti_spring"])), 1):
            out[k] += int(v)
        scores = [a + b for a, b in zip(scores, r["scores"])]
    winners: tuple = ()
    if games is not record and "totals" in record:
        best = max(record["totals"])
        winners = tuple(s for s, v in enumerate(record["totals"]) if v == best)
    return (*out, tuple(scores), winners)


def _line_unit(seed: int, index: int, names: tuple, rules: Rules, match: Optional[int]) -> tuple:
    """``(record as one JSON line, its _summary)``: the worker serialises, so that the
    driver of ``ddz selfplay --ray`` only writes text."""
    record = _play_unit(seed, index, names, rules, match)
    return json.dumps(record, separators=(",", ":")), _summary(record)


def _summary_unit(seed: int, index: int, names: tuple, rules: Rules, match: Optional[int]) -> tuple:
    """``(None, summary)``: ``ddz selfplay`` without ``--out``."""
    return None, _summary(_play_unit(seed, index, names, rules, match))


_UNITS = {"record": _play_unit, "line": _line_unit, "summary": _summary_unit}


def _selfplay_chunk(seed: int, start: int, stop: int, names: tuple, rules: Rules,
                    match: Optional[int], form: str = "record") -> list:
    """Records (or lines) of hands ``start..stop-1`` (one Ray task)."""
    unit = _UNITS[form]
    return [unit(seed, i, names, rules, match) for i in range(start, stop)]


def _chunk_size(chunk, units: int, workers: int, most: int) -> int:
    if chunk is not None:
        return _count(chunk, "chunk", 1)
    # about four tasks per worker (a slow chunk does not hold up the others), at most `most`
    return max(1, min(most, math.ceil(units / (4 * workers))))


def iter_selfplay(games: int, seed: int = 0, workers: Optional[int] = None,
                  bots: Sequence[str] = ("random",) * 3, rules: Rules = STANDARD,
                  chunk: Optional[int] = None, match: Optional[int] = None,
                  ray: Optional[bool] = None) -> Iterator[dict]:
    """:func:`selfplay` one record at a time, in hand order (the arguments are checked
    before the first record: at the call). With Ray, closing the iterator early cancels the
    tasks still running."""
    return iter_units(games, seed, workers, bots, rules, chunk, match, ray, "record")


def iter_units(games, seed, workers, bots, rules, chunk, match, ray, form: str) -> Iterator[Any]:
    """:func:`iter_selfplay` for ``form="record"``; ``"line"``: ``(JSON line, summary)``
    pairs (:func:`_line_unit`), ``"summary"``: ``(None, summary)``, for ``ddz selfplay``."""
    if not isinstance(rules, Rules):
        raise DdzError(f"rules must be a ddz.Rules, not {type(rules).__name__}: {quote(rules)}")
    games = _count(games, "games", 0)
    seed = _count(seed, "seed", 0)
    workers = _plan(workers, ray)
    names = _bots(bots, rules)
    match = None if match is None else _count(match, "match", 1)
    workers = min(workers, max(1, games))      # no more workers than hands
    per_task = _chunk_size(chunk, games, workers or 1, max(1, DEFAULT_CHUNK // (match or 1)))
    if not workers:
        unit = _UNITS[form]
        return (unit(seed, i, names, rules, match) for i in range(games))
    jobs = [(seed, a, min(a + per_task, games), names, rules, match, form)
            for a in range(0, games, per_task)]
    return (record for records in _fan_out(_selfplay_chunk, jobs, workers) for record in records)


def selfplay(games: int, seed: int = 0, workers: Optional[int] = None,
             bots: Sequence[str] = ("random",) * 3, rules: Rules = STANDARD,
             chunk: Optional[int] = None, match: Optional[int] = None,
             ray: Optional[bool] = None) -> List[Dict[str, Any]]:
    """Bots play ``games`` complete hands (RULES.md §3-§6); their records, in hand order.

    Hand ``i`` is dealt from ``hand_seeds(seed, games)[i]`` and played by bots made for it
    alone (seeded from the same ``SeedSequence`` child), so the records are the same, in
    the same order, for every ``workers`` and ``chunk``; ``ddz selfplay --seed S`` writes
    the same records.

    :param games: hands to play (with ``match``: matches), an int >= 0.
    :param seed: an int >= 0.
    :param workers: ``None`` or ``1``: play here (Ray is not imported); ``N >= 2`` (or 0:
        every usable CPU, :func:`ddz.core.parallel.threads_arg`): Ray remote tasks, at most
        ``N`` and at most the hands at a time (``ray.init(num_cpus=N)``, at most this
        machine's CPUs, if Ray is not initialised yet).
    :param ray: ``None`` (default): Ray iff ``workers >= 2``; ``True``: Ray even with one
        worker (``workers=None`` or 0: every usable CPU); ``False``: never (``workers`` must
        then be ``None`` or ``1``).
    :param bots: one bot spec per seat (``Rules.players`` of them): a registered name
        (``"random"``, ``"greedy"``, ``"solver"``, ``"expert"``, ``"expert-2026-12"``,
        ``"douzero-rlcard"``...), with options (``"expert:samples=4"``), or
        ``"py:module:Class"`` (:mod:`ddz.search.registry`, :func:`ddz.search.bots.make_bot`).
    :param rules: the :class:`ddz.Rules` of every hand.
    :param chunk: hands (matches) per Ray task (default: about four tasks per worker, at
        most :data:`DEFAULT_CHUNK` hands); the records do not depend on it.
    :param match: play matches of ``match`` hands (RULES.md §6) instead of single hands;
        the records are then match records (``docs/records.md``, "Matches"), and match
        ``i`` is ``Match(rules, match, seed=hand_seeds(seed, games)[i])``.
    :returns: ``games`` JSON-serializable records (dicts), each replayable with
        :meth:`ddz.Game.from_record` (:meth:`ddz.Match.from_record`).
    :raises DdzError: a bad count, seed, workers, ray, chunk or match; bots not one known spec per
        seat (or a ``cmd:`` program); rules not a Rules; ``workers >= 2`` without Ray installed
        (``pip install 'ddz[ray]'``).
    """
    return list(iter_selfplay(games, seed, workers, bots, rules, chunk, match, ray))


# -- solving ---------------------------------------------------------------------------

def _solve_chunk(positions: list, kwargs: dict, processes: int = 1) -> list:
    # start-up time: this module is imported by `ddz selfplay`, which needs no solver
    from .search.solver import solve, solve_batch
    if processes > 1:       # a Ray task: its table's memory is shared with the others'
        solving_processes(processes)
    if kwargs.get("threads", 1) == 1:
        # one C loop over the positions (the same answers as solve, one by one)
        return solve_batch(positions, **{k: v for k, v in kwargs.items() if k != "threads"})
    return [solve(p, **kwargs) for p in positions]


def solve_many(positions: Sequence, *, workers: Optional[int] = None, chunk: Optional[int] = None,
               ray: Optional[bool] = None, **solve_kwargs) -> list:
    """Solve many perfect-information positions (RULES.md §5, §6): ``[ddz.solve(p, **solve_kwargs)
    for p in positions]``, fanned out over Ray with ``workers >= 2``; each chunk (all of
    them with ``workers=None``) is one :func:`ddz.solve_batch` call when ``threads`` is 1.

    :param positions: :class:`ddz.Position` objects, or their text (``Position.parse``).
    :param workers: ``None`` or ``1``: solve here; ``N >= 2``: Ray remote tasks, at most
        ``N`` at a time (as :func:`selfplay`).
    :param chunk: positions per Ray task (default: about four tasks per worker, at most 64).
    :param ray: as :func:`selfplay`.
    :param solve_kwargs: ``score``, ``all_moves``, ``node_limit``, ``time_limit``,
        ``threads``, ``table_mb`` of :func:`ddz.solve` (not ``progress``).
    :returns: one :class:`ddz.Solution` per position, in order; every field but
        ``seconds`` is what :func:`ddz.solve` returns for it alone (with a time limit, which
        positions finish may differ).
    :raises DdzError: a position that is not a Position or does not parse (named by its
        index), an unknown keyword or a bad value of one (as :func:`ddz.solve`), bad
        workers, ray or chunk, ``workers >= 2`` without Ray; under ``DDZ_NO_EXTENSIONS=1`` a
        position too large for the pure solver without a limit.
    """
    # start-up time: this module is imported by `ddz selfplay`, which needs no solver
    from .game.position import Position
    from .search import solver as _solver_mod
    solve = _solver_mod.solve
    unknown = sorted(set(solve_kwargs) - set(_SOLVE_KEYS))
    if unknown:
        raise DdzError(f"solve_many takes the keywords {', '.join(_SOLVE_KEYS)} of ddz.solve, "
                       f"not {', '.join(unknown)}")
    workers = _plan(workers, ray)
    if isinstance(positions, (str, bytes)) or not isinstance(positions, (Sequence, Iterator)):
        raise DdzError(f"positions must be a list of ddz.Position (or their text), got {quote(positions)}")
    todo = []
    for i, p in enumerate(positions):
        if isinstance(p, str):
            try:
                p = Position.parse(p)
            except DdzError as exc:
                raise type(exc)(f"position {i}: {exc}") from None
        elif not isinstance(p, Position):
            raise DdzError(f"position {i} is not a ddz.Position: {quote(p)}")
        todo.append(p)
    # the keyword values are checked here, once, by solve() itself on a position that is
    # over (it returns at once); then every position the pure solver would refuse
    solve(Position(["3", ""]), **solve_kwargs)
    if _solver_mod.pure_python() and solve_kwargs.get("node_limit") is None \
            and solve_kwargs.get("time_limit") is None:
        for i, p in enumerate(todo):
            if sum(p.cards_left) > _solver_mod.PURE_PYTHON_MAX_CARDS:
                raise DdzError(f"position {i} has {sum(p.cards_left)} cards; without the compiled "
                               f"extensions (DDZ_NO_EXTENSIONS=1) solve() takes at most "
                               f"{_solver_mod.PURE_PYTHON_MAX_CARDS} without a node_limit or time_limit")
    if not todo:
        return []
    if not workers:
        return _solve_chunk(todo, solve_kwargs)
    workers = min(workers, len(todo))          # no more workers than positions
    per_task = _chunk_size(chunk, len(todo), workers, 64)
    jobs = [(todo[a:a + per_task], solve_kwargs, workers) for a in range(0, len(todo), per_task)]
    return [s for sols in _fan_out(_solve_chunk, jobs, workers) for s in sols]
