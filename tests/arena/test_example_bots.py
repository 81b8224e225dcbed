"""The example bots of docs/protocol.md (examples/bots/: Python, Node.js, awk under a POSIX
shell) play full matches as real subprocesses: no forfeit, no timeout, and a match is
reproducible. A test skips only where its interpreter is missing."""

import pathlib
import shutil
import sys

import pytest

from ddz.arena import run

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "bots"
NODE = shutil.which("node") or shutil.which("nodejs")


def _clean(r, name):
    bot = r.bots[0]
    assert bot["name"] == name and bot["forfeits"] == 0 and bot["timeouts"] == 0 and bot["decisions"] > r.hands
    return bot


def test_the_python_example_plays_lowest_first():
    r = run([f"cmd:{sys.executable} {EXAMPLES / 'lowest.py'}", "greedy"], deals=1, seed=4)
    bot = _clean(r, "lowest-py")
    inproc = run([Lowest, "greedy"], deals=1, seed=4)
    assert (bot["wp"], bot["adp"]) == (inproc.bots[0]["wp"], inproc.bots[0]["adp"])


class Lowest:
    def act(self, observation, legal):
        return legal[0]


@pytest.mark.skipif(NODE is None, reason="needs Node.js (node); .ci/run installs Debian's nodejs")
def test_the_node_example_plays_reproducibly_from_seed_text():
    bot = f"cmd:{NODE} {EXAMPLES / 'random_bot.js'}"
    a = run([bot, "greedy"], deals=1, seed=9, mode="game")
    b = run([bot, "greedy"], deals=1, seed=9, mode="game")
    _clean(a, "random-js")
    assert a.numbers() == b.numbers()
    c = run([bot, "greedy"], deals=1, seed=10, mode="game")
    assert c.bots[0]["decisions"] != a.bots[0]["decisions"] or c.bots[0]["adp"] != a.bots[0]["adp"]


@pytest.mark.skipif(shutil.which("sh") is None or shutil.which("awk") is None, reason="needs sh and awk")
def test_the_awk_example_plays():
    r = run([f"cmd:{EXAMPLES / 'first_legal_awk.sh'}", "greedy"], deals=1, seed=4)
    _clean(r, "first-legal-awk")
