"""``ddz arena BOT BOT... [options]``: the arena on the command line (issue 27), and the
result files (issue 40): ``ddz arena --resume FILE``, ``ddz arena show FILE``, ``ddz
arena merge A B ... [-o OUT]``, ``ddz arena plot FILE -o chart.png``.

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
    from .sprt import Sprt
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
                    "cmd:PROGRAM (docs/protocol.md). "
                    "Result files (--save): 'ddz arena show FILE' prints one again, 'ddz arena merge A B "
                    "... [-o OUT]' pools runs over different deals, 'ddz arena plot FILE -o chart.png' "
                    "draws it (matplotlib), 'ddz arena --resume FILE' plays the deals an interrupted run left.")
    p.add_argument("bots", nargs="*", metavar="BOT",
                   help="two or more bots (the same one twice plays it against itself); or show FILE, "
                        "merge FILE FILE..., plot FILE")
    p.add_argument("--deals", type=_positive, default=1000, metavar="N", help="deals to play (default 1000)")
    p.add_argument("--seed", type=_seed, default=0, metavar="S", help="seed of the deals and bots (default 0)")
    p.add_argument("--first-deal", type=_seed, default=0, metavar="D",
                   help="play the seed's deals D to D+N-1 (default 0): runs over different deals merge")
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
    p.add_argument("--ready-seconds", type=_seconds, default=None, metavar="T",
                   help="protocol bots: seconds to answer 'hello' with 'ready', at each start (default 20); "
                        "a program that does not start stops the match (exit status 2)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--out", metavar="FILE", default=None,
                   help="write every hand as a replayable record, one JSON line each")
    p.add_argument("--quiet", action="store_true",
                   help="no progress (a bar on a terminal; else a line after 10 s with the time left, then every minute)")
    p.add_argument("--save", metavar="FILE", default=None,
                   help="write the result file (every deal's values) at the end, after Ctrl-C and every minute")
    p.add_argument("--resume", metavar="FILE", default=None,
                   help="play the deals the run saved in FILE left, and save the whole run there (its bots, "
                        "seed, mode, rules, deals and SPRT come from the file)")
    p.add_argument("-o", "--output", metavar="FILE", default=None,
                   help="merge: the merged result file; plot: the chart (.png or .svg)")
    if add_game_options is not None:
        add_game_options(p)
    p.set_defaults(func=main)
    return p


def _rules(args):
    """The rules of the options: ``--profile NAME`` with the options given over it (as
    every ``ddz`` command reads them), else the ``ddz`` command's rule options when
    present, else the mode's default; in douzero mode, DouZero's profile with any option
    changed."""
    # start-up time: `ddz` builds every command's parser; what a command runs is imported when it runs
    import dataclasses
    from ..core.rules import PROFILES, STANDARD, Rules
    given = {f.name: getattr(args, f.name) for f in dataclasses.fields(Rules) if hasattr(args, f.name)}
    name = getattr(args, "profile", None)
    if name is not None:             # as ddz.cli.options reads it: the options given override the profile's
        fixed = {k: given.pop(k) for k in list(given) if k in PROFILES[name]}
        return dataclasses.replace(Rules.profile(name, **given), **fixed)
    if args.mode == "douzero":
        base = Rules.profile("douzero")
        changed = {k: v for k, v in given.items() if v != getattr(STANDARD, k) and v != getattr(base, k)}
        return dataclasses.replace(base, **changed) if changed else base
    return Rules(**given) if given else None


def main(args) -> int:
    """Run ``ddz arena`` with parsed ``args``; returns the exit status (130 after Ctrl-C)."""
    if args.bots and args.bots[0] in _FILE_COMMANDS and args.resume is None:
        return _FILE_COMMANDS[args.bots[0]](args, args.bots[1:])
    # start-up time: `ddz` builds every command's parser; what a command runs is imported when it runs
    from . import resume, run
    if args.out is not None and not args.out.strip():
        raise DdzError("--out needs a file name")
    if args.save is not None and not args.save.strip():
        raise DdzError("--save needs a file name")
    progress = False if args.quiet else (True if _isatty(sys.stderr) else "lines")
    try:
        if args.resume is not None:
            if args.bots:
                raise DdzError("--resume takes its bots from the file: give no BOT")
            result = resume(args.resume, workers=args.workers, ray=args.ray, out=args.out, progress=progress,
                            move_seconds=args.move_seconds, hand_seconds=args.hand_seconds, save=args.save,
                            ready_seconds=args.ready_seconds)
        else:
            result = run(args.bots, deals=args.deals, seed=args.seed, mode=args.mode, rules=_rules(args),
                         workers=args.workers, ray=args.ray, sprt=args.sprt, out=args.out, progress=progress,
                         move_seconds=args.move_seconds, hand_seconds=args.hand_seconds, save=args.save,
                         first_deal=args.first_deal, ready_seconds=args.ready_seconds)
    except KeyboardInterrupt:
        print("\nddz: interrupted", file=sys.stderr)
        return 130
    _print(result, args.json)
    if result.interrupted:
        saved = args.save or args.resume
        print(f"ddz: interrupted after {result.deals} of {result.deals_requested} deals"
              + (f"; 'ddz arena --resume {saved}' plays the rest" if saved else ""), file=sys.stderr)
        return 130
    dead = result.never_started()
    if dead:        # a program that cannot start makes no result: an error, not a 0-WP row
        first = {f["bot"]: f.get("detail") for f in reversed(result.forfeits)}
        raise DdzError("; ".join(f"bot {name!r} never started: {first.get(name)}" for name in dead))
    return 0


def _print(result, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result.to_dict(deal_values=False)))
    else:
        print(result)


def _files(what: str, files, least: int) -> list:
    # start-up time: `ddz` builds every command's parser; what a command runs is imported when it runs
    from .results import ArenaResult
    if len(files) < least:
        raise DdzError(f"ddz arena {what} needs {'a result file' if least == 1 else f'{least} or more result files'}")
    return [ArenaResult.load(f) for f in files]


def _show(args, files) -> int:
    """``ddz arena show FILE...``: each result's table again."""
    for r in _files("show", files, 1):
        _print(r, args.json)
    return 0


def _merge(args, files) -> int:
    """``ddz arena merge A B ... [-o OUT]``: the pooled result (written to OUT)."""
    from .results import merge   # start-up time: as _files
    result = merge(_files("merge", files, 2))
    if args.output is not None:
        result.save(args.output)
    _print(result, args.json)
    return 0


def _plot(args, files) -> int:
    """``ddz arena plot FILE -o chart.png|svg``."""
    if len(files) != 1 or not args.output:
        raise DdzError("ddz arena plot needs one result file and -o CHART (.png or .svg)")
    from .plot import plot   # start-up time: matplotlib only for a chart
    plot(_files("plot", files, 1)[0], args.output)
    print(f"wrote {args.output}")
    return 0


_FILE_COMMANDS = {"show": _show, "merge": _merge, "plot": _plot}


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False
