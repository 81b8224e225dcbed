#!/usr/bin/env python3
"""A bot of the ddz arena protocol (docs/protocol.md) in Python: ddz.arena.serve speaks
the protocol (and flushes each line); the bot plays the first legal action, which is the
pass when it may pass, else its lowest play.

    ddz arena "cmd:python3 examples/bots/lowest.py" greedy --deals 100
"""

import ddz.arena


class LowestBot:
    """Plays the first legal action: the pass when it may, else its lowest play."""

    def act(self, observation, legal):
        return legal[0]


if __name__ == "__main__":
    raise SystemExit(ddz.arena.serve(LowestBot(), name="lowest-py"))
