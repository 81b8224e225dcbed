"""``python -m ddz.arena BOT``: serve a bot over the bot protocol (``docs/protocol.md``) on
standard input and output; BOT is any bot the arena knows by name (``greedy``, ``expert``,
``module:Class``...), but not a ``cmd:`` program."""

import sys

from ..errors import DdzError
from .bots import bot_spec
from .protocol import serve


def main(argv=None) -> int:
    """Serve ``argv[0]`` (default ``greedy``); ``--seed S`` seeds the bot."""
    args = list(sys.argv[1:] if argv is None else argv)
    seed = 0
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i:i + 2]
    name = args[0] if args else "greedy"
    if name.startswith("cmd:"):
        raise DdzError("python -m ddz.arena serves a Python bot, not a cmd: program")
    spec = bot_spec(name)
    return serve(spec.make(seed), name=spec.name)


if __name__ == "__main__":
    sys.exit(main())
