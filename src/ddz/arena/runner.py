"""Duplicate matches between bots: :func:`run` and :class:`ArenaResult` (issue 27).

Every pair of bots plays every deal at several tables with the seats exchanged, as
bridge's duplicate scoring does, so the luck of the deal cancels; the statistics are
computed on per-deal values (:mod:`ddz.arena.stats`).

``mode="douzero"`` is DouZero's evaluation (``douzero/evaluation/simulation.py``): deal
``d`` is ``Game(Rules.profile("douzero"), seed=s_d)``'s cards, its first bidder ``L`` is
the landlord (it bids 3 and takes the bottom: :func:`ddz.interop.douzero_game`), and each
pair (A, B) plays it twice: A at seat ``L`` against B at both farmer seats, then the
reverse. A side that wins scores DouZero's ``base × 2^bombs`` (base 2 for the landlord, 1
for each farmer; bombs and rockets count), the losers lose as much
(``GameEnv.update_num_wins_scores``). WP is the share of deals won; ADP the points per
deal, ``(landlord's score as landlord + both farmers' score as farmers) / 2``.

``mode="game"`` plays whole hands (bidding, doubling, RULES.md §3-§6) under any
:class:`ddz.Rules`: for A and B with three players the tables (A, B, B) and (B, A, A), each
rotated over the seats (6 tables; 8 with four players), all dealt ``Game(rules,
seed=s_d)``; scores are ``ddz``'s settlement (:attr:`ddz.Result.scores`), and the per-deal
statistic is A's mean over its seats minus B's.

Deal seeds are ``ddz.distributed.hand_seeds(seed, deals)``; the bots of a table, and the
``random`` and ``numpy.random`` modules (other engines' agents draw from them; seeded
whenever a bot other than ``ddz``'s built-ins plays), are seeded from the words
``numpy.random.SeedSequence(seed, spawn_key=(deal,))`` draws for each table (every pair
of bots meets the same seeds), so every table depends only on ``(seed, deal, table)`` and its
bots: the results are the same for any number of workers, and a pair's results do not
depend on the other bots of the run.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import DdzError, quote
from ..game.state import Game
from ..core.play import PlayType
from ..core.parallel import solving_processes, threads_arg
from ..core.rules import STANDARD, Rules
from .bots import DouZeroAgentBot, bot_spec
from .protocol import BotStartError, Forfeit, ProtocolBot
from .sprt import Sprt
from .results import ArenaResult, build
from .tally import add_deal, seats_per_pair, summary
from .plan import check_size, deals_to_play, progress as _progress_display, start as _start_from

__all__ = ["run", "resume", "ArenaResult", "MODES"]

MODES = ("douzero", "game")
"""The arena's modes."""

_BOMBS = (PlayType.BOMB, PlayType.ROCKET)
_ADAPTERS = (ProtocolBot, DouZeroAgentBot)


# -- one table ---------------------------------------------------------------------------

class _Worker:
    """The bots of one process: specs rebuilt from their text, and the protocol programs
    (kept between hands: as many per bot as seats it holds at one table, so that no
    program ever sees two seats of a hand)."""

    def __init__(self, texts: Sequence[Any], names: Sequence[str], seed: int, mode: str, rules: Rules,
                 records: bool, move_seconds: Optional[float], hand_seconds: Optional[float],
                 ready_seconds: Optional[float] = None) -> None:
        self.specs = [bot_spec(t) for t in texts]
        self.names = list(names)
        self.seed = seed
        self.mode = mode
        self.rules = rules
        self.records = records
        self.move_seconds = move_seconds
        self.hand_seconds = hand_seconds
        self.ready_seconds = ready_seconds
        self.programs: Dict[Tuple[int, int], Any] = {}
        self.reported = [spec.name for spec in self.specs]
        self.seed_globals = not all(spec.seeded for spec in self.specs)
        self.pairs = [(a, b) for a in range(len(texts)) for b in range(a + 1, len(texts))]

    def close(self) -> None:
        for p in self.programs.values():
            p.close()
        self.programs.clear()

    def _bot(self, k: int, slot: int, seed: int) -> Any:
        spec = self.specs[k]
        if spec.kind != "protocol":
            return spec.make(seed)
        bot = self.programs.get((k, slot))
        if bot is None:
            bot = self.programs[(k, slot)] = spec.make(seed)
            if self.move_seconds is not None:
                bot.move_seconds = float(self.move_seconds)
            bot.hand_seconds = self.hand_seconds
            if self.ready_seconds is not None:
                bot.ready_seconds = float(self.ready_seconds)
        return bot

    def deal(self, d: int, deal_seed: int) -> List[tuple]:
        """Every table of deal ``d``: a list of table results (see :meth:`table`)."""
        rules = self.rules
        base = Game(rules, seed=deal_seed)
        if self.mode == "douzero":
            # start-up time: only mode='douzero' needs the conversions
            from ..interop import douzero_card_play_data, douzero_game
            lord = base.first_bidder      # DouZero's landlord: it bids 3 and takes the bottom
            base.step(3)
            base = douzero_game(douzero_card_play_data(base), lord, rules)
            n_tables = 2
        else:
            lord = None
            n_tables = 2 * rules.seats
        n = rules.seats
        state = np.random.SeedSequence(self.seed, spawn_key=(d,)).generate_state(n_tables * (n + 1), np.uint64)
        words = [int(w) >> 1 for w in state]       # per table: a seed per seat, then the globals'
        out = []
        for p, (a, b) in enumerate(self.pairs):
            for t in range(n_tables):
                if lord is None:
                    game = Game(rules, seed=deal_seed)
                else:         # the same game as `base` (douzero_game's), made anew: cheaper than a clone
                    game = Game(rules, seed=0, deal=base.deal, first_bidder=lord)
                    game.step(3)
                out.append(self.table(d, deal_seed, p, a, b, t, game, lord, words))
        return out

    def summary(self, d: int, deal_seed: int) -> tuple:
        """:func:`ddz.arena.tally.summary` of deal ``d``."""
        n_tables = 2 if self.mode == "douzero" else 2 * self.rules.seats
        return summary(self.deal(d, deal_seed), self.pairs, n_tables, self.mode, len(self.specs))

    def lineup(self, a: int, b: int, t: int, lord: Optional[int]) -> List[int]:
        """The bot index at each seat of table ``t``."""
        n = self.rules.seats
        if self.mode == "douzero":
            first, other = (a, b) if t == 0 else (b, a)
            return [first if s == lord else other for s in range(n)]
        first, other = (a, b) if t < n else (b, a)
        rot = t % n
        return [first if (s - rot) % n == 0 else other for s in range(n)]

    def table(self, d: int, deal_seed: int, p: int, a: int, b: int, t: int, game: Game, lord,
              table_words: List[int]) -> tuple:
        """Play one table. Returns ``(lineup, landlord, won per seat, scores per seat,
        bombs, forfeit, events, decisions per seat, seconds per seat, bot names, record
        line)``."""
        rules = self.rules
        n = rules.seats
        lineup = self.lineup(a, b, t, lord)
        words = table_words[t * (n + 1):(t + 1) * (n + 1)]
        if self.seed_globals:        # other engines' agents draw from the global generators
            random.seed(words[n])
            np.random.seed(words[n] & 0xFFFFFFFF)
        hand_id = f"{d}:{p}:{t}"
        bots: List[Any] = [None] * n
        forfeit = None
        events: List[dict] = []
        decisions = [0] * n
        seconds = [0.0] * n
        slots: Dict[int, int] = {}
        for s in range(n):
            try:
                k = lineup[s]
                slots[k] = slot = slots.get(k, -1) + 1     # a program per seat the bot holds here
                bots[s] = self._bot(k, slot, words[s])
                if self.specs[k].kind == "protocol":
                    bots[s].new_hand(rules, s, words[s], hand_id)
                    if bots[s].name and bots[s].name != self.reported[k]:
                        self.reported[k] = bots[s].name      # the name its 'ready' gave
                        self.names = _unique(self.reported)
            except Forfeit as exc:
                forfeit = forfeit or {"seat": s, "kind": exc.kind, "detail": exc.detail}
            except BotStartError:         # a program that never started: the match stops
                raise
            except Exception as exc:      # a bot that cannot be made forfeits
                forfeit = forfeit or {"seat": s, "kind": "error", "detail": f"{type(exc).__name__}: {exc}"}
        clock = time.perf_counter
        # only the arena's own adapters see the game (to build a request or DouZero's
        # information set); every other bot gets its seat's Observation alone
        acts = [bot.act_game if isinstance(bot, _ADAPTERS) else None for bot in bots]
        observe, legal_actions, step = game.observation, game.legal_actions, game.step
        while forfeit is None and game.current_player is not None:
            s = game.current_player
            obs = observe()
            legal = legal_actions()
            t0 = clock()
            try:
                act_game = acts[s]
                action = act_game(game, obs, legal) if act_game is not None else bots[s].act(obs, legal)
            except Forfeit as exc:
                forfeit = {"seat": s, "kind": exc.kind, "detail": exc.detail}
                break
            except Exception as exc:
                forfeit = {"seat": s, "kind": "error", "detail": f"{type(exc).__name__}: {exc}"[:300]}
                break
            finally:
                seconds[s] += clock() - t0
                decisions[s] += 1
            try:
                step(action)
            except DdzError as exc:
                forfeit = {"seat": s, "kind": "illegal", "detail": f"{action!r:.60}: {exc}"[:300]}
        for s in range(n):
            if self.specs[lineup[s]].kind == "protocol" and bots[s] is not None:
                events += bots[s].events
        lord_seat, won, scores, bombs = self.outcome(game, forfeit)
        for s in range(n):
            if self.specs[lineup[s]].kind == "protocol" and bots[s] is not None:
                bots[s].end_hand(hand_id, None if game.result is None else game.result.to_json(), forfeit)
        line = None
        if self.records:
            rec = game.to_record()
            rec["meta"] = {"arena": {"deal": d, "deal_seed": deal_seed, "pair": [self.names[a], self.names[b]], "table": t,
                            "bots": [self.names[k] for k in lineup], "mode": self.mode, "landlord": lord_seat,
                            "won": won, "scores": scores, "bombs": bombs, "forfeit": forfeit, "events": events}}
            line = json.dumps(rec, separators=(",", ":"))
        return (lineup, lord_seat, won, scores, bombs, forfeit, events, decisions, seconds, list(self.names), line)

    def outcome(self, game: Game, forfeit: Optional[dict]) -> tuple:
        """``(landlord, won per seat, scores per seat, bombs)`` of a finished or forfeited
        table: DouZero's scores in its mode, ``ddz``'s settlement in game mode."""
        n = self.rules.seats
        lord = game.landlord
        plays = game.plays
        bombs = sum(1 for _, pl in plays if pl.type in _BOMBS)
        if forfeit is None:
            res = game.result
            if res.void:
                return None, [False] * n, [0] * n, bombs
            lord_wins = res.winner == "landlord"
        else:
            if lord is None:          # a forfeit in the auction: that seat loses as a landlord
                lord = forfeit["seat"]
            lord_wins = forfeit["seat"] != lord
        won = [(s == lord) == lord_wins for s in range(n)]
        if self.mode == "douzero":
            unit = 2 ** bombs
            sign = 1 if lord_wins else -1
            scores = [2 * sign * unit if s == lord else -sign * unit for s in range(n)]
        elif forfeit is None:
            scores = list(game.result.scores)
        else:
            stake = max(game.bid, 1) * game.multiplier
            sign = 1 if lord_wins else -1
            scores = [(n - 1) * sign * stake if s == lord else -sign * stake for s in range(n)]
        return lord, won, scores, bombs


_STATE: Dict[str, Any] = {}


def _init_worker(args: tuple, processes: int = 1) -> None:
    """A worker process's initializer: build its bots and warm the tables up; its
    solver tables share the memory with ``processes`` workers."""
    from multiprocessing.util import Finalize   # start-up time: only a worker process needs it
    solving_processes(processes)
    worker = _STATE["worker"] = _Worker(*args)
    Finalize(worker, worker.close, exitpriority=10)
    Game(args[4], seed=0)


def _chunk(deals: Sequence[Tuple[int, int]]) -> List[Tuple[int, tuple]]:
    w = _STATE["worker"]
    return [(d, w.summary(d, s)) for d, s in deals]


def _ray_chunk(args: tuple, deals: Sequence[Tuple[int, int]], processes: int = 1) -> List[Tuple[int, tuple]]:
    solving_processes(processes)
    w = _Worker(*args)
    try:
        return [(d, w.summary(d, s)) for d, s in deals]
    finally:
        w.close()


def _ready(_: int) -> int:
    return os.getpid()


# -- the run -------------------------------------------------------------------------------

def _unique(names: Sequence[str]) -> List[str]:
    """Display names, made unique (``greedy``, ``greedy#2``) for a bot against itself."""
    out: List[str] = []
    for base in names:
        name, k = base, 1
        while name in out:
            k += 1
            name = f"{base}#{k}"
        out.append(name)
    return out


def _rules_for(mode: str, rules: Optional[Rules]) -> Rules:
    if mode not in MODES:
        raise DdzError(f"mode must be one of {', '.join(MODES)}, got {quote(mode)}")
    if rules is None:
        return Rules.profile("douzero") if mode == "douzero" else STANDARD
    if not isinstance(rules, Rules):
        raise DdzError(f"rules must be a ddz.Rules or None, not {type(rules).__name__}: {quote(rules)}")
    if mode == "douzero":
        wrong = [f"{k}={getattr(rules, k)!r}" for k, ok in (("players", 3), ("bidding", "points"), ("doubling", False),
                                                             ("bottom_bonus", False)) if getattr(rules, k) != ok]
        if wrong:
            raise DdzError(f"douzero mode is DouZero's evaluation: three players, the landlord bids 3, no "
                           f"doubling and no bottom bonus; not {', '.join(wrong)} (use mode='game')")
    return rules


def _count(value: Any, what: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise DdzError(f"{what} must be an integer >= {low}, got {quote(value)}")
    return int(value)


def _seconds(value: Any, what: str) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or value == math.inf:
        raise DdzError(f"{what} must be a positive number of seconds or None, got {quote(value)}")
    return float(value)


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def run(bots: Sequence[Any], *, deals: int, seed: int = 0, mode: str = "douzero", rules: Optional[Rules] = None,
        workers: int = 1, ray: bool = False, sprt: Any = None, out: Any = None, progress: bool = False,
        move_seconds: Optional[float] = None, hand_seconds: Optional[float] = None,
        chunk: Optional[int] = None, first_deal: int = 0, save: Optional[str] = None,
        save_seconds: float = 60.0, _resume: Optional[ArenaResult] = None,
        ready_seconds: Optional[float] = None) -> ArenaResult:
    """Play duplicate matches between bots and measure them (see the module docstring).

    Parameters
    ----------
    bots : sequence
        Two or more bots (:func:`ddz.arena.bots.bot_spec`: names such as ``"greedy"``,
        ``"expert"``, ``"douzero-rlcard"``, ``"module:Class"``, ``"cmd:./mybot"``,
        classes, objects); the same name twice plays a bot against itself. Every pair
        plays every deal.
    deals : int
        Deals to play (>= 1); each is played at 2 tables per pair in ``douzero`` mode,
        ``2 * players`` in ``game`` mode.
    seed : int
        The seed of the deals and bots (>= 0).
    mode : ``"douzero"`` or ``"game"``
    rules : Rules, optional
        Default ``Rules.profile("douzero")`` in ``douzero`` mode (which needs three players
        bidding points, no doubling, no bottom bonus), ``ddz.STANDARD`` in ``game`` mode.
    workers : int
        Processes that play: local worker processes, or Ray tasks with ``ray=True``
        (``ddz.distributed.fan_out``); an int >= 0, 0 for every usable CPU, at most the
        usable CPUs (on Ray: the cluster's) and the deals (:func:`ddz.core.parallel.threads_arg`;
        ``ArenaResult.workers`` says how many played). The results do not depend on it.
    ray : bool
    sprt : Sprt, str or None
        For two bots: a :class:`ddz.arena.Sprt` (or its text ``"elo0,elo1[,alpha,beta]"``);
        play stops at the first deal where it decides (deals played in order, so the
        stopping deal does not depend on ``workers``).
    out : str, file or None
        Write every hand as one JSON line: a ``ddz`` record (``docs/records.md``,
        replayable with ``ddz replay``) with ``meta.arena``, an object (deal, pair, table,
        bots per seat, the arena's scores, forfeit and timeouts), in deal, pair, table
        order.
    progress : bool or ``"lines"``
        Draw a progress bar on standard error (``True``: for a terminal), or print a line
        of progress after 10 s (with an estimate of the time left) and every minute
        after (``"lines"``: for a log).
    move_seconds, hand_seconds : float, optional
        Time control of protocol bots (per decision, per hand); a bot past it gets
        :meth:`ddz.Game.timeout_action`. Python bots are not timed out (they are not
        interrupted; search bots are limited by nodes instead, so results are
        reproducible).
    chunk : int, optional
        Deals per worker task (default: about eight tasks per worker, at most 50).
    ready_seconds : float, optional
        The time a protocol program has to answer ``hello`` with ``ready``, at each
        start (default 20).
    first_deal : int
        Play deals ``first_deal`` to ``first_deal + deals - 1`` of the seed (>= 0; default
        0): two runs of one seed over different deals can be merged
        (:func:`ddz.arena.merge`).
    save : str, optional
        Write the result file (:meth:`ArenaResult.save`, with the per-deal values) to this
        path at the end, after Ctrl-C, and every ``save_seconds`` while playing, so that
        :func:`ddz.arena.resume` can go on from it.

    Returns
    -------
    ArenaResult

    Raises
    ------
    DdzError
        Fewer than two bots, an unknown bot, a bad count, seed, mode, rules, workers,
        SPRT (or one with more than two bots), four players in ``douzero`` mode, Ray not
        installed; more deals than a result holds
        (:data:`ddz.arena.tally.MAX_DEAL_NUMBERS` integers: ``deals * (4 * pairs + 6 *
        bots)``, e.g. 1,562,500 deals of two bots).
    BotStartError
        (a DdzError) A protocol program did not start: it exited, or did not say
        ``ready`` (of this protocol version) in time; once, and the match stops.
    """
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence) or len(bots) < 2:
        raise DdzError(f"run() needs a list of two or more bots, got {quote(bots)}")
    specs = [bot_spec(b) for b in bots]
    names = _unique([s.name for s in specs])
    deals = _count(deals, "deals", 1)
    seed = _count(seed, "seed", 0)
    if not isinstance(ray, bool):
        raise DdzError(f"ray must be True or False, got {quote(ray)}")
    # no more processes than the CPUs (a Ray cluster: its own) and the deals can use
    workers = threads_arg(workers, name="workers", work=deals, cap=not ray)
    rules = _rules_for(mode, rules)
    if isinstance(sprt, str):
        sprt = Sprt.parse(sprt)
    if sprt is not None:
        if not isinstance(sprt, Sprt):
            raise DdzError(f"sprt must be a ddz.arena.Sprt, its text 'elo0,elo1[,alpha,beta]' or None, got {quote(sprt)}")
        if len(specs) != 2:
            raise DdzError(f"an SPRT tests two bots, not {len(specs)}")
    move_seconds = _seconds(move_seconds, "move_seconds")
    hand_seconds = _seconds(hand_seconds, "hand_seconds")
    ready_seconds = _seconds(ready_seconds, "ready_seconds")
    chunk = None if chunk is None else _count(chunk, "chunk", 1)
    first_deal = _count(first_deal, "first_deal", 0)
    check_size(deals, len(specs))
    if save is not None and (not isinstance(save, str) or not save.strip()):
        raise DdzError(f"save must be a file name, got {quote(save)}")
    for spec in specs:
        if mode == "game" and spec.name.startswith("douzero-") and rules.players != 3:
            raise DdzError(f"{spec.name} plays three-player games only")
    from ..distributed import hand_seeds   # start-up time: imported when a match runs
    todo = deals_to_play(first_deal, deals, _resume)
    seeds = hand_seeds(seed, first_deal + deals)
    pairs = [(a, b) for a in range(len(specs)) for b in range(a + 1, len(specs))]
    texts = [s.text for s in specs]
    wargs = (texts, names, seed, mode, rules, out is not None, move_seconds, hand_seconds, ready_seconds)
    per = chunk or max(1, min(50, math.ceil(max(1, len(todo)) / (8 * workers))))
    if sprt is not None and chunk is None:
        per = max(1, min(per, 10))
    jobs = [[(d, seeds[d]) for d in todo[a:a + per]] for a in range(0, len(todo), per)]

    stream, close_out = None, False
    if out is not None:
        if isinstance(out, str):
            try:
                stream, close_out = open(out, "w", encoding="utf-8"), True
            except OSError as exc:
                raise DdzError(f"cannot write {out!r}: {exc.strerror or exc}") from None
        elif callable(getattr(out, "write", None)):
            stream = out
        else:
            raise DdzError(f"out must be a file name or a writable file, got {quote(out)}")

    bar = _progress_display(progress, len(todo))
    values, totals, counter = _start_from(_resume, len(specs), seats_per_pair(mode, rules.players), seed, sprt)
    spec_texts = [t if isinstance(t, str) else None for t in texts]
    if counter is not None and counter.decided:
        jobs = []            # a resumed run whose test had decided: nothing more to play

    def result_now(seconds: float, interrupted: bool = False) -> ArenaResult:
        return build(mode=mode, rules=rules, seed=seed, names=names, deals_requested=deals, values=values,
                     totals=totals, sprt=sprt, seconds=seconds + (_resume.seconds if _resume else 0.0),
                     workers=workers if (ray or workers > 1) else 1, interrupted=interrupted,
                     first_deal=first_deal, bot_specs=spec_texts)

    pool = local = ray_results = None
    results: Any
    complete = interrupted = False
    start = time.perf_counter()
    try:
        if ray:
            from ..distributed import fan_out   # start-up time: only a match over Ray needs it
            list(fan_out(_ready, [(i,) for i in range(workers)], workers))     # warm the workers up
            start = time.perf_counter()
            ray_results = fan_out(_ray_chunk, [(wargs, j, workers) for j in jobs], workers)
            results = (r for rs in ray_results for r in rs)
        elif workers > 1:
            ctx = _context()
            pool = ctx.Pool(workers, initializer=_init_worker, initargs=(wargs, workers))
            pool.map(_ready, range(workers), chunksize=1)
            start = time.perf_counter()
            results = (r for rs in pool.imap(_chunk, jobs) for r in rs)
        else:
            local = _Worker(*wargs)
            Game(rules, seed=0)
            start = time.perf_counter()
            results = ((d, local.summary(d, s)) for job in jobs for d, s in job)
        try:
            saved = time.perf_counter()
            for d, summ in results:
                sample = add_deal(values, totals, d, summ, pairs, names)
                if stream is not None:
                    stream.write("".join(line + "\n" for line in summ[-1]))
                bar.advance()
                if counter is not None and counter.add(sample) is not None:
                    break
                if save is not None and time.perf_counter() - saved > save_seconds:
                    result_now(time.perf_counter() - start, True).save(save)
                    saved = time.perf_counter()
            else:
                complete = True
        except KeyboardInterrupt:      # Ctrl-C: the deals finished so far are the result
            interrupted = True
            if not len(values):
                raise
        seconds = time.perf_counter() - start
    finally:
        bar.close()
        if ray_results is not None:
            ray_results.close()        # cancels the Ray tasks still running
        if pool is not None:
            if complete:
                pool.close()          # the workers end their protocol programs as they exit
            else:
                pool.terminate()      # stopped early: the programs see their input close, and exit
            pool.join()
        if local is not None:
            local.close()
        if close_out:
            stream.close()
    result = result_now(seconds, interrupted)
    if save is not None:
        result.save(save)
    return result


# -- going on from a result (issue 40) -------------------------------------------------------

def resume(result: Any, *, workers: int = 1, ray: bool = False, out: Any = None, progress: Any = False,
           move_seconds: Optional[float] = None, hand_seconds: Optional[float] = None,
           save: Optional[str] = None, ready_seconds: Optional[float] = None) -> ArenaResult:
    """Play the deals a run did not finish (it was interrupted), and return the result of
    the whole run: the same :meth:`ArenaResult.numbers` as one uninterrupted run.

    :param result: an :class:`ArenaResult` or the path of its file (format 2, its bots given
        by name).
    :param save: write the result file there (as :func:`run`'s ``save``); with ``result``
        a path, default that path.
    :returns: the whole run's :class:`ArenaResult`.
    :raises DdzError: a file that cannot be read; a result without per-deal values, of
        several seeds (a merge), or with a bot given as a Python object; and :func:`run`'s.
    """
    if isinstance(result, str):
        save = result if save is None else save
        result = ArenaResult.load(result)
    if not isinstance(result, ArenaResult):
        raise DdzError(f"resume needs an ArenaResult or its file, got {quote(result)}")
    if result.values is None:
        raise DdzError("this result keeps no per-deal values (a file of format 1): it cannot be resumed")
    if result.seed is None or len(result.values.seeds) > 1:
        raise DdzError("a merge of runs of several seeds cannot be resumed")
    if not result.bot_specs or any(s is None for s in result.bot_specs):
        raise DdzError("a run with a bot given as a Python object cannot be resumed: give every bot by name")
    sprt = None
    if result.sprt is not None:
        sprt = Sprt(**{k: result.sprt[k] for k in ("elo0", "elo1", "alpha", "beta", "min_deals")})
    return run(result.bot_specs, deals=result.deals_requested, seed=result.seed, mode=result.mode,
               rules=result.rules, workers=workers, ray=ray, sprt=sprt, out=out, progress=progress,
               move_seconds=move_seconds, hand_seconds=hand_seconds, first_deal=result.first_deal, save=save,
               _resume=result, ready_seconds=ready_seconds)
