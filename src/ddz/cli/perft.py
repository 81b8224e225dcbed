"""``ddz perft``: count the positions a dealt hand reaches (:func:`ddz.perft`)."""

from __future__ import annotations

import time

from ..errors import DdzError
from .options import _rules, _seat_option


def cmd_perft(args) -> int:
    """`ddz perft`: leaves of the play-phase legal-move tree of a deal. Returns the exit status."""
    # start-up time: `ddz` builds every command's parser; what a command runs is imported when it runs
    from ..game.state import Game
    from ..game.perft import divide, perft
    rules = _rules(args)
    _seat_option(args.landlord, "--landlord", rules)
    deal = tuple(args.deal) if args.deal else None
    if deal is not None and len(deal) != rules.seats + 1:
        raise DdzError(f"--deal takes {rules.seats} hands and the bottom ({rules.seats + 1} parts), got {len(deal)}")
    game = Game(rules, seed=args.seed if args.seed is not None else 0, deal=deal,
                first_bidder=args.landlord)
    game.step(3)
    while game.phase.value in ("doubling", "opening"):
        game.step(False)
    d = game.deal.to_json()
    print(f"landlord seat {args.landlord}; hands: {' / '.join(d['hands'])}; bottom {d['bottom']}")
    perft(game, 1)  # builds the rule set's move tables outside the timing
    start = time.perf_counter()
    if args.divide:
        rows = divide(game, args.depth)
        for play, count in rows:
            print(f"{str(play):<16} {count}")
        total = sum(c for _, c in rows)
    else:
        total = perft(game, args.depth)
    elapsed = time.perf_counter() - start
    print(f"perft({args.depth}) = {total}  ({elapsed:.3f} s, {total / max(elapsed, 1e-9):,.0f} nodes/s)")
    return 0
