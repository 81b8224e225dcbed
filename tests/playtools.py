"""Driving ``ddz play`` in-process from the tests: a stdin that answers its prompts from
what it printed (``Answers``, ``answer``) and ``play(argv, monkeypatch)``. Shared by
tests/cli/test_cli_table.py and tests/game/test_match.py (a module of its own next to
conftest.py, importable from any test directory in any order)."""

import io
import re
import sys

from ddz.cli import main


class Answers(io.StringIO):
    """A stdin that answers the prompts of ``ddz play`` from what was printed."""

    def __init__(self, screen, after=("n",), first=()):
        super().__init__()
        self.screen, self.after, self.first = screen, list(after), list(first)
        self.prompts = []

    def readline(self):
        prompt = self.screen.getvalue().rsplit("\n", 1)[-1]
        self.prompts.append(prompt)
        return answer(prompt, self.screen.getvalue(), self.after, self.first) + "\n"


def answer(prompt, text, after, first):
    if first:
        return first.pop(0)
    if "again?" in prompt:
        return after.pop(0) if after else "n"
    if "file name" in prompt:
        return after.pop(0)
    if "your bid" in prompt:
        return "3"
    if "call" in prompt:
        return "call"
    if "double?" in prompt:
        return "pass"
    if "you lead" in prompt:
        return re.findall(r"your hand: ([^\n]+)", text)[-1][0]
    return "pass"


def play(argv, monkeypatch, **kw):
    """``ddz play ARGV`` with the answers of :class:`Answers` (``after``, ``first``):
    ``(exit status, everything printed, the stdin)``."""
    screen = io.StringIO()
    stdin = Answers(screen, **kw)
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", screen)
    code = main(["play"] + argv)
    return code, screen.getvalue(), stdin
