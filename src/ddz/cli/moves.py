"""``ddz moves``, ``ddz classify`` and ``ddz beats``: the rules functions on the command line."""

from __future__ import annotations

import json
import sys

from .options import EXAMPLE_HAND, _rules


def cmd_moves(args) -> int:
    """`ddz moves`: list (or count) the legal moves of a hand (RULES.md §2.3). Returns the exit status."""
    # start-up time: `ddz` builds every command's parser; what a command runs is imported when it runs
    from .. import core as moves
    rules = _rules(args)
    hand = args.hand if args.hand is not None else EXAMPLE_HAND
    if args.hand is None and not args.json:
        # a notice, not output: stdout stays machine-readable (e.g. with --count)
        print(f"(no HAND given: using the example hand {hand})", file=sys.stderr)
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
    """`ddz classify`: name the play some cards form (RULES.md §2). Returns the exit status."""
    # start-up time: `ddz` builds every command's parser; what a command runs is imported when it runs
    from .. import core as moves
    play = moves.classify(args.cards, _rules(args))
    if args.json:
        print(json.dumps({"play": str(play), "type": play.type.name, "rank": play.rank,
                          "length": play.length}))
    else:
        print(f"{play.type.name} {play}")
    return 0


def cmd_beats(args) -> int:
    """`ddz beats`: does one play beat another (RULES.md §2.2)? Returns the exit status."""
    # start-up time: `ddz` builds every command's parser; what a command runs is imported when it runs
    from .. import core as moves
    from ..core.play import Play
    rules = _rules(args)
    answer = moves.beats(args.play, args.other, rules)  # checks both plays (exit 2 if bad)
    if args.json:
        print(json.dumps({"play": str(Play.parse(args.play, rules)),
                          "other": str(Play.parse(args.other, rules)), "beats": answer}))
    else:
        print("yes" if answer else "no")
    return 0
