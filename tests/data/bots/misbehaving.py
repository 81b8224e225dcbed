"""A protocol bot that plays like ddz.GreedyBot until its N-th decision of a hand, and then
misbehaves as told: ``garbage`` (a line that is no JSON), ``illegal`` (an action that is
not legal), ``crash`` (exits with status 3), ``slow`` (answers after SECONDS) or ``good``
(never misbehaves); ``mixed`` picks one of the first four per hand from the hand's seed. Usage: misbehaving.py MODE [N [SECONDS]]."""

import json
import os
import sys
import time

import ddz
import ddz.arena

MODES = ("good", "garbage", "illegal", "crash")


class Misbehaving:
    def __init__(self, mode, at, seconds):
        self.mode, self.at, self.seconds = mode, at, seconds
        self.mixed = mode == "mixed"
        self.greedy = ddz.GreedyBot()
        self.count = 0

    def seed(self, seed):
        self.count = 0          # a new hand
        if self.mixed:
            self.mode = MODES[seed % len(MODES)]

    def act(self, obs, legal):
        self.count += 1
        if self.count == self.at:
            if self.mode == "garbage":
                sys.stdout.write("this is not JSON\n")
            elif self.mode == "illegal":
                sys.stdout.write(json.dumps({"id": LAST_ID[0], "action": "33333333"}) + "\n")
            elif self.mode == "crash":
                sys.stdout.flush()
                os._exit(3)
            elif self.mode == "slow":
                time.sleep(self.seconds)
        return self.greedy.act(obs, legal)


LAST_ID = [None]       # the id of the request being answered


def requests():
    """Standard input's lines, noting each request's id on the way."""
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") == "act":
            LAST_ID[0] = msg["id"]
        yield line


if __name__ == "__main__":
    mode = sys.argv[1]
    at = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    sys.exit(ddz.arena.serve(Misbehaving(mode, at, seconds), name=f"misbehaving-{mode}", stdin=requests()))
