"""The ``ddz`` command line (argparse).

Each sub-command is a function ``cmd_NAME(args) -> int`` of its module (``moves``:
``moves``, ``classify``, ``beats``; ``selfplay``; ``play``; ``replay``; ``perft``;
``solve``: ``solve``, ``solve-many``; ``analyze``, which registers its own parser), registered in :func:`build_parser`; the options
they share are in ``options`` (read here, on this package, where tests replace them).
Bad input prints ``ddz: error: ...`` to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from ..errors import DdzError
# the shared options, read on this package by the commands (and replaced here by tests)
from .options import (EXAMPLE_HAND, _Version, _add_game_options, _add_ray_options,  # noqa: F401
                      _add_rules_options, _add_solve_options, _bot_names, _one_bot, bot_names_help, _int_at_least, _isatty,
                      _non_negative, _open_output, _out_file, _play_types, _positive, _ray_workers, _rules,
                      _save_file, _seat_option, _seed, _solve_kwargs, _Union)
from .moves import cmd_beats, cmd_classify, cmd_moves
from .perft import cmd_perft
from .play import cmd_play
from .replay import cmd_replay
from .selfplay import cmd_selfplay
from .solve import cmd_solve, cmd_solve_many


def build_parser() -> argparse.ArgumentParser:
    """The ``ddz`` argument parser, one sub-parser per command."""
    parser = argparse.ArgumentParser(
        prog="ddz", description="Dou Dizhu (斗地主) rules engine. Cards: 3..9 T J Q K A 2 B R.")
    parser.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS,
                        help="print the version, the active implementation (core or reference) "
                             "and whether OpenMP is on, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("moves", help="list the legal moves of a hand",
                       description="List every legal move of HAND (RULES.md §2.3).")
    p.add_argument("hand", nargs="?", metavar="HAND",
                   help=f"cards in notation, e.g. 33344456 (default: the example {EXAMPLE_HAND})")
    p.add_argument("--to-beat", metavar="PLAY", default=None,
                   help="the play to beat, e.g. 555+8 (default: leading)")
    p.add_argument("--count", action="store_true", help="print only how many moves")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    _add_rules_options(p)
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("classify", help="name the play some cards form",
                       description="Classify CARDS as a play (RULES.md §2).")
    p.add_argument("cards", metavar="CARDS")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    _add_rules_options(p)
    p.set_defaults(func=cmd_classify)

    p = sub.add_parser("beats", help="does one play beat another?",
                       description="Answer whether PLAY may be played on OTHER (RULES.md §2.2): "
                                   "prints yes or no and exits 0; a PLAY or OTHER that is not "
                                   "a play exits 2.")
    p.add_argument("play", metavar="PLAY", help="the response, e.g. 3333 (pass beats nothing)")
    p.add_argument("other", metavar="OTHER", help="the play to beat, e.g. 444456")
    p.add_argument("--json", action="store_true",
                   help='machine-readable output: {"play", "other", "beats"}')
    _add_rules_options(p)
    p.set_defaults(func=cmd_beats)

    p = sub.add_parser("selfplay", help="bots play complete hands; print a summary",
                       description="Play N complete hands (RULES.md §3-§7) between bots (three, or "
                                   "four with --players 4) "
                                   "and print a summary: landlord win rate, mean score per "
                                   "seat, bombs and springs per hand, hands per second.")
    p.add_argument("--games", type=_positive, default=1000, metavar="N",
                   help="number of hands, or of matches with --match (default 1000)")
    p.add_argument("--match", type=_positive, default=None, metavar="H",
                   help="play matches of H hands (RULES.md §6) instead of single hands; records are match records")
    p.add_argument("--seed", type=_seed, default=None, metavar="S",
                   help="seed for the deals and the bots (default: random, printed)")
    p.add_argument("--bots", type=_bot_names, default=None,
                   metavar="A,B,C[,D]", help=f"one bot for every seat, or the bots of seats 0,1,2 (and 3 with --players 4): "
                                             f"{bot_names_help()}, with options as name:key=value "
                                             f"(expert:samples=4), or py:module:Class "
                                             f"(default greedy, then random)")
    p.add_argument("--out", metavar="FILE", default=None, type=_out_file,
                   help="write every hand's record to FILE as JSON lines (see docs/records.md); "
                        "'-' for standard output (the summary then goes to standard error)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (shown only on a terminal)")
    _add_ray_options(p, "hands")
    _add_game_options(p)
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("play", help="play hands in the terminal against bots",
                       description="Play hands against bots (two, or three with --players 4) "
                                   "at a table that shows every "
                                   "seat's role and cards left, the bid and the multiplier; "
                                   "your hand is grouped by rank. Type bids and plays in "
                                   "notation (333+4, BR, pass); '?' lists every legal move; "
                                   "illegal input is explained and asked again. After each "
                                   "hand: every hand left is shown, and you may save the "
                                   "record or play again.")
    p.add_argument("--hands", type=_positive, default=None, metavar="H",
                   help="play a match of H hands (RULES.md §6: totals add up, the highest wins)")
    p.add_argument("--seat", type=int, choices=(0, 1, 2, 3), default=0,
                   help="your seat (default 0; 3 only with --players 4)")
    p.add_argument("--seed", type=_seed, default=None, metavar="S", help="seed of the deal")
    p.add_argument("--bot", type=_one_bot, default="greedy", metavar="BOT",
                   help=f"the opponents' bot: {bot_names_help()}, with options as name:key=value, or "
                        f"py:module:Class (default greedy)")
    p.add_argument("--auto-pass", action=argparse.BooleanOptionalAction, default=True,
                   help="pass for you when nothing in your hand beats the play to beat "
                        "(default on; --no-auto-pass asks anyway)")
    p.add_argument("--save", metavar="FILE", type=_save_file, default=None,
                   help="append every finished hand's record to FILE (JSON lines, for ddz replay); "
                        "a FILE that cannot be written is refused before the first hand")
    _add_game_options(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("replay", help="check game records and summarise them",
                       description="Replay every record of FILE (one JSON record, a JSON list "
                                   "of records, or JSON lines), checking every action, and "
                                   "print a summary: hands, void and unfinished ones, score "
                                   "totals (a progress bar on a terminal). Exit status 2 "
                                   "names the first bad action.")
    p.add_argument("file", metavar="FILE", help="a JSON or JSON-lines file of records; - for standard input")
    p.add_argument("-v", "--verbose", action="count", default=0,
                   help="a line per hand; twice (-vv): also its deal and actions")
    p.add_argument("--brief", action="store_true", help=argparse.SUPPRESS)  # the default now
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("perft", help="count the nodes of the legal-move tree",
                       description="Count the leaves of the play-phase legal-move tree to "
                                   "DEPTH plies (passes included) from a deal whose landlord "
                                   "bid 3, as chess engines do; --divide prints each first "
                                   "move's count.")
    p.add_argument("--depth", type=_non_negative, default=2, metavar="D", help="plies (default 2)")
    p.add_argument("--seed", type=_seed, default=None, metavar="S",
                   help="deal from this seed (default 0)")
    p.add_argument("--deal", nargs="+", metavar="PART",
                   help="the deal instead of a seed: each hand, then the bottom (rank or suited notation)")
    p.add_argument("--landlord", type=int, choices=(0, 1, 2, 3), default=0,
                   help="the landlord's seat (default 0)")
    p.add_argument("--divide", action="store_true", help="print each first move's count")
    _add_rules_options(p)
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("solve", help="solve an endgame with every hand open",
                       description="Solve a perfect-information endgame (two or three hands, "
                                   "RULES.md §5): who wins under best play, a winning move and "
                                   "the line of play; --score for the score (§6). Ctrl-C stops "
                                   "a long solve cleanly.")
    p.add_argument("hands", nargs="+", metavar="HAND", help="two or three hands in seat order, e.g. KK5543 225543; or a "
                        "position's one-line form, e.g. '3/4/5 to_move=1 to_beat=33 last=0'")
    p.add_argument("--landlord", type=int, default=None, metavar="SEAT", help="the landlord's seat (default 0)")
    p.add_argument("--to-move", type=int, default=None, metavar="SEAT",
                   help="the seat to move (default: the landlord)")
    p.add_argument("--to-beat", metavar="PLAY", default=None, help="the play to beat (default: leading)")
    p.add_argument("--last", type=int, default=None, metavar="SEAT", help="the seat that made the play to beat")
    _add_solve_options(p, "", "threads (default 1; 0: every usable CPU)", "machine-readable output")
    _add_rules_options(p)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("solve-many", help="solve many endgames, one per line of a file",
                       description="Solve every position of FILE (one per line in the text "
                                   "form of ddz.Position.parse, e.g. 'KK5543/225543 "
                                   "landlord=1'; blank lines and lines starting with # are "
                                   "skipped) and print one line per position, in order; "
                                   "--ray fans them out over Ray workers (the same answers).")
    p.add_argument("file", metavar="FILE", help="a file of positions, one per line; - for standard input")
    _add_solve_options(p, " each position", "threads per position (default 1; 0: every usable CPU)",
                       "one JSON object per line (the fields of ddz solve --json)")
    _add_ray_options(p, "positions")
    p.set_defaults(func=cmd_solve_many)
    from .analyze import add_parser as add_analyze   # start-up time: as the commands below, its own module
    add_analyze(sub)
    from ..web.cli import add_parser as add_serve    # ddz serve (issue 28): its code is in ddz.web
    add_serve(sub)
    from ..arena.cli import add_parser as add_arena_parser   # `ddz arena` (issue 27): its own module
    add_arena_parser(sub, _add_game_options)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of the ``ddz`` command. Returns the exit status (0 ok, 2 bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except DdzError as exc:
        print(f"ddz: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `ddz moves | head`
        return 0
    except OSError as exc:  # e.g. stdout on a full disk
        print(f"ddz: error: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: no traceback, the shell's usual status
        print("\nddz: interrupted", file=sys.stderr)
        return 130

