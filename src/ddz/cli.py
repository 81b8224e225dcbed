"""The ``ddz`` command line (argparse).

Each sub-command is a function ``cmd_NAME(args) -> int`` registered in :func:`build_parser`.
Bad input prints ``ddz: error: ...`` to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional

from .errors import DdzError
from .rules import Rules

EXAMPLE_HAND = "3334445567899TJQKA22"  # a 20-card landlord hand: trios, chains, a pair of 2s


def _rules(args) -> Rules:
    return Rules(kickers=args.kickers)


def _add_rules_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kickers", choices=("distinct", "repeat"), default="distinct",
                   help="kicker rule (RULES.md §2.1): distinct (default) or repeat")


def cmd_moves(args) -> int:
    from . import moves
    rules = _rules(args)
    hand = args.hand if args.hand is not None else EXAMPLE_HAND
    if args.hand is None and not args.json:
        print(f"(no HAND given: using the example hand {hand})")
    if args.count:
        n = moves.count_legal_moves(hand, args.to_beat, rules)
        print(json.dumps(n) if args.json else n)
        return 0
    found = moves.legal_moves(hand, args.to_beat, rules)
    if args.json:
        print(json.dumps([{"play": str(p), "type": p.type.name, "rank": p.rank,
                           "length": p.length} for p in found]))
        return 0
    width = max((len(p.type.name) for p in found), default=4)
    for p in found:
        print(f"{p.type.name:<{width}}  {p}")
    print(f"{len(found)} legal move{'s' if len(found) != 1 else ''}")
    return 0


def cmd_classify(args) -> int:
    from . import moves
    play = moves.classify(args.cards, _rules(args))
    if args.json:
        print(json.dumps({"play": str(play), "type": play.type.name, "rank": play.rank,
                          "length": play.length}))
    else:
        print(f"{play.type.name} {play}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ddz", description="Dou Dizhu (斗地主) rules engine. Cards: 3..9 T J Q K A 2 B R.")
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
