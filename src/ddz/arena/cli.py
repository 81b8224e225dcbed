"""``ddz arena BOT BOT... [options]``: the arena on the command line (issue 27).

:func:`add_parser` registers the sub-command on the ``ddz`` parser; :func:`main` runs it.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import DdzError
from ..search import registry    # the bots' names: it imports nothing of the game

__all__ = ["add_parser", "main"]


def _number(kind, ok, what: str):
    """An argparse type: ``kind(text)`` for which ``ok`` holds (``what`` names it)."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not ok(value):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value
    return parse


_positive = _number(int, lambda n: n >= 1, "a positive integer")
_seed = _number(int, lambda n: n >= 0, "a seed: an integer >= 0")
_seconds = _number(float, lambda v: 0 < v < float("inf"), "a positive number of seconds")


def _sprt(text: str):
    # start-up time: `ddz` builds every command's parser; what a command runs is imported when it runs
    from .stats import Sprt
    try:
        return Sprt.parse(text)
    except DdzError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_parser(subparsers, add_game_options=None) -> argparse.ArgumentParser:
    """Add ``arena`` to the ``ddz`` sub-parsers.

    :param subparsers: what ``ArgumentParser.add_subparsers()`` returned.
    :param add_game_options: a function adding the rule options to a parser (the
        ``ddz`` command's own, so that ``arena`` takes the same ``--kickers``...);
        ``None`` adds none.
    :returns: the sub-parser.
    """
    p = subparsers.add_parser(
        "arena", help="duplicate matches between bots, with confidence intervals",
        description="Play duplicate matches between two or more bots and print each bot's win "
                    "probability (WP) and average points per deal (ADP) with 95% confidence "
                    "intervals on the per-deal values; the same deals are played with the seats "
                    "exchanged. --mode douzero is DouZero's evaluation (the landlord known, no "
                    "bidding); --mode game plays whole hands. Bots: " + ", ".join(registry.names()) +
                    " (options as name:key=value, e.g. expert:samples=4), py:module:Class, "
                    "cmd:PROGRAM (docs/protocol.md).")
    p.add_argument("bots", nargs="+", metavar="BOT", help="two or more bots (the same one twice plays it against itself)")
    p.add_argument("--deals", type=_positive, default=1000, metavar="N", help="deals to play (default 1000)")
    p.add_argument("--seed", type=_seed, default=0, metavar="S", help="seed of the deals and bots (default 0)")
    p.add_argument("--mode", choices=("douzero", "game"), default="douzero",
                   help="douzero: DouZero's evaluation (default); game: whole hands with bidding")
    p.add_argument("--workers", type=_number(int, lambda n: n >= 0, "an integer >= 0"), default=1, metavar="K",
                   help="worker processes (default 1; 0: every usable CPU; at most the CPUs and the "
                        "deals); the numbers do not depend on it")
    p.add_argument("--ray", action="store_true", help="run the workers as Ray tasks (ddz.distributed)")
    p.add_argument("--sprt", type=_sprt, default=None, metavar="ELO0,ELO1[,ALPHA[,BETA]]",
                   help="two bots: stop once a sequential test decides between elo0 and elo1 (as fishtest)")
    p.add_argument("--move-seconds", type=_seconds, default=None, metavar="T",
                   help="protocol bots: seconds per decision (default 10); past it the timeout action")
    p.add_argument("--hand-seconds", type=_seconds, default=None, metavar="T",
                   help="protocol bots: seconds per hand (default: no limit)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--out", metavar="FILE", default=None,
                   help="write every hand as a replayable record, one JSON line each")
    p.add_argument("--quiet", action="store_true", help="no progress bar (shown only on a terminal)")
    if add_game_options is not None:
        add_game_options(p)
    p.set_defaults(func=main)
    return p


def _rules(args):
    """The rules of the options: the ``ddz`` command's rule options when present, else
    the mode's default; in douzero mode, DouZero's profile with any option changed."""
    # start-up time: `ddz` builds every command's parser; what a command runs is imported when it runs
    import dataclasses
    from ..core.rules import STANDARD, Rules
    given = {f.name: getattr(args, f.name) for f in dataclasses.fields(Rules) if hasattr(args, f.name)}
    if args.mode == "douzero":
        base = Rules.profile("douzero")
        changed = {k: v for k, v in given.items() if v != getattr(STANDARD, k) and v != getattr(base, k)}
        return dataclasses.replace(base, **changed) if changed else base
    return Rules(**given) if given else None


def main(args) -> int:
    """Run ``ddz arena`` with parsed ``args``; returns the exit status (130 after Ctrl-C)."""
    # start-up time: `ddz` builds every command's parser; what a command runs is imported when it runs
    from . import run
    if args.out is not None and not args.out.strip():
        raise DdzError("--out needs a file name")
    try:
        result = run(args.bots, deals=args.deals, seed=args.seed, mode=args.mode, rules=_rules(args),
                     workers=args.workers, ray=args.ray, sprt=args.sprt, out=args.out,
                     progress=not args.quiet and _isatty(sys.stderr),
                     move_seconds=args.move_seconds, hand_seconds=args.hand_seconds)
    except KeyboardInterrupt:
        print("\nddz: interrupted", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print(result)
    if result.interrupted:
        print(f"ddz: interrupted after {result.deals} of {args.deals} deals", file=sys.stderr)
        return 130
    dead = result.never_started()
    if dead:        # a program that cannot start makes no result: an error, not a 0-WP row
        first = {f["bot"]: f.get("detail") for f in reversed(result.forfeits)}
        raise DdzError("; ".join(f"bot {name!r} never started: {first.get(name)}" for name in dead))
    return 0


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False
