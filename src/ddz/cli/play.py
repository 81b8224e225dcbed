"""``ddz play``: a person against bots at the terminal's table (:mod:`ddz.terminal`)."""

from __future__ import annotations

import random
import sys
from typing import Optional, TextIO

from .options import _rules, _seat_option


def cmd_play(args, stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None) -> int:
    """`ddz play`: a person against bots (two, or three with ``--players 4``) at a table in
    the terminal (:class:`ddz.terminal.PlaySession`). ``--save FILE`` is opened for
    appending before the first hand (and closed again), so that a path that cannot be
    written is an error at once. Returns the exit status."""
    from .. import cli   # looked up per call on the package (tests replace its helpers); at the top: a cycle
    from ..terminal import PlaySession
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    rules = _rules(args)
    _seat_option(args.seat, "--seat", rules)
    if args.save is not None:           # refused now, not after the hand (appending nothing changes no file)
        cli._open_output(args.save, "--save", "a").close()
    session = PlaySession(rules, args.seat, args.bot, seed, stdin or sys.stdin, stdout or sys.stdout,
                          auto_pass=args.auto_pass, save=args.save, hands=args.hands)
    return session.run()
