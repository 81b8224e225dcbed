"""``ddz selfplay``: bots play N hands (in this process or over Ray); a summary, and the
records with ``--out``."""

from __future__ import annotations

import os
import random
import signal
import sys
import threading
import time

from ..core.rules import Rules
from ..errors import DdzError
from .options import _ray_workers, _rules


def cmd_selfplay(args) -> int:
    """`ddz selfplay`: bots play N hands; print a summary. Returns the exit status (130
    after Ctrl-C, with the hands finished so far written and summarised).

    The hands are :func:`ddz.distributed.selfplay`'s: hand ``i`` depends only on the seed
    and ``i``, so ``--ray --workers N`` writes the same records as one process."""
    from .. import cli   # looked up per call on the package (tests replace its helpers); at the top: a cycle
    from ..core.implementation import engine_note
    from ..distributed import iter_units
    from ..terminal import progress_bar
    rules = _rules(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    names = args.bots or ["greedy"] + ["random"] * (rules.seats - 1)
    if len(names) == 1:                  # one bot for every seat
        names = names * rules.seats
    if len(names) != rules.seats:
        raise DdzError(f"--bots names {len(names)} bots, but {rules.seats} players play (--players {rules.seats})")
    args.bots = names
    workers = _ray_workers(args)
    records = iter_units(args.games, seed, workers, names, rules, None, args.match, args.ray,
                          "summary" if args.out is None else "line")
    out = None
    to_stdout = args.out == "-"        # records on stdout, so the summary goes to stderr
    if to_stdout:
        out = sys.stdout
    elif args.out is not None:
        out = cli._open_output(args.out, "--out", "w")
    n = args.games
    done = hands = wins = voids = redeals = bombs = rockets = springs = antis = 0
    totals = [0] * rules.seats
    match_wins = [0] * rules.seats      # matches won outright
    match_shared = [0] * rules.seats    # tied matches in which the seat shared the top total
    ties = 0
    interrupted = False
    progress = progress_bar(n, "selfplay", sys.stderr, not args.quiet and cli._isatty(sys.stderr))
    start = time.perf_counter()
    # Ctrl-C between a record's write and its count would leave one record more in the
    # file than the summary says (seen on Python 3.13): a SIGINT that comes in between is
    # held until the record is counted in every total
    held = _HeldInterrupt()
    try:
        for line, summary in records:
            held.hold = True
            if out is not None:
                try:
                    out.write(line + "\n")  # one write per record: Ctrl-C never splits a line
                except OSError as exc:
                    raise DdzError(f"cannot write --out {args.out!r}: {exc.strerror or exc}") from None
            done += 1                   # with the write: the file holds `done` records
            n_hands, n_wins, n_voids, n_redeals, n_bombs, n_rockets, n_springs, n_antis, scores, winners = summary
            hands += n_hands
            wins += n_wins
            voids += n_voids
            redeals += n_redeals
            bombs += n_bombs
            rockets += n_rockets
            springs += n_springs
            antis += n_antis
            for s_, v in enumerate(scores):
                totals[s_] += v
            if len(winners) == 1:
                match_wins[winners[0]] += 1
            elif winners:               # the highest total shared: a tie, no seat's win
                ties += 1
                for s_ in winners:
                    match_shared[s_] += 1
            progress.advance()
            held.release()              # the record is written and counted in full
    except KeyboardInterrupt:           # Ctrl-C: keep what is finished, and summarise it
        interrupted = True
    finally:
        held.restore()
        records.close()                 # with Ray: cancels the tasks still running
        progress.close()
        if out is not None and not to_stdout:
            try:
                out.close()
            except OSError as exc:
                raise DdzError(f"cannot write --out {args.out!r}: {exc.strerror or exc}") from None
    elapsed = time.perf_counter() - start
    per = max(hands, 1)
    unit_name = "matches" if args.match else "hands"
    rows = [
        (unit_name, f"{done}" + (f" of {n} (interrupted)" if interrupted else "")
         + (f" of {args.match} hands each ({hands} hands)" if args.match else "")),
        ("seed", f"{seed}"),
        ("rules", _rules_summary(rules)),
        ("engine", engine_note() + (f"; Ray, {workers or os.cpu_count()} workers" if args.ray else "")),
        ("landlord win rate", f"{wins / per:.1%}"),
    ]
    for s_ in range(rules.seats):
        rows.append((f"mean score seat {s_} ({args.bots[s_]})", f"{totals[s_] / per:+.3f}"))
    rows += [
        ("bombs per hand", f"{bombs / per:.3f}"),
        ("rockets per hand", f"{rockets / per:.3f}"),
        ("springs per hand", f"{springs / per:.3f}"),
        ("anti-springs per hand", f"{antis / per:.3f}"),
        ("redeals per hand", f"{redeals / per:.3f}"),
        ("void hands", f"{voids}"),
        ("hands per second", f"{hands / max(elapsed, 1e-9):,.0f}"),
    ]
    if args.match:   # outright wins and tied matches add up to the matches played
        rows[5:5] = [(f"match wins seat {s_} ({args.bots[s_]})", f"{match_wins[s_]} of {done}"
                      + (f" (and {match_shared[s_]} tied)" if match_shared[s_] else ""))
                     for s_ in range(rules.seats)] + [("tied matches", f"{ties} of {done} (the highest total shared)")]
    if out is not None:
        rows.append(("records written to", ("standard output" if to_stdout else args.out)
                     + (f" ({done} finished {unit_name})" if interrupted else "")))
    width = max(len(k) for k, _ in rows)
    summary = sys.stderr if to_stdout else sys.stdout
    for k, v in rows:
        print(f"{k:<{width}}  {v}", file=summary)
    if interrupted:
        summary.flush()
        print(f"ddz: interrupted after {done} of {n} {unit_name}", file=sys.stderr)
        return 130
    return 0


def _rules_summary(rules: Rules) -> str:
    """The rules in the self-play summary: the players, then only the fields that differ
    from that game's defaults (``Rules()``, or ``Rules.four_player()`` with four players),
    e.g. ``3 players, kickers=repeat doubling=True``."""
    default = (Rules.four_player() if rules.players == 4 else Rules()).to_json()
    changed = [f"{k}={','.join(v) if isinstance(v, list) else v}"
               for k, v in rules.to_json().items() if k != "players" and v != default[k]]
    return f"{rules.players} players, " + (" ".join(changed) if changed else "the default rules")


class _HeldInterrupt:
    """A SIGINT handler (the main thread's, when Python's own is installed) that raises
    KeyboardInterrupt at once, except while ``hold`` is set: then it is raised by
    :meth:`release`. Elsewhere (another thread, another handler) it changes nothing."""

    def __init__(self) -> None:
        self.hold = False
        self.pending = False
        self._old = None
        if threading.current_thread() is threading.main_thread() \
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self._old = signal.signal(signal.SIGINT, self._handler)

    def _handler(self, signum, frame) -> None:
        if self.hold:
            self.pending = True
        else:
            raise KeyboardInterrupt

    def release(self) -> None:
        self.hold = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt

    def restore(self) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)
            self._old = None
