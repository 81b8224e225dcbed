"""``ddz play`` as a table, ``ddz replay``'s summary, ``ddz selfplay`` and Ctrl-C, and the
command line's honest switches (issue 16). The session is also driven through a
pseudo-terminal, as a person would see it."""

import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest

import ddz
from ddz import Game
from ddz.cli import main
from playtools import answer as _answer, play as _play

SRC = os.path.dirname(os.path.dirname(ddz.__file__))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def _env(**extra):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""), **extra)
    env.pop("DDZ_NO_EXTENSIONS", None) if "DDZ_NO_EXTENSIONS" not in extra else None
    return env


def test_table_shows_roles_cards_multiplier_and_who_bids_first(monkeypatch):
    code, text, _ = _play(["--seed", "4", "--seat", "0"], monkeypatch)
    assert code == 0, text
    g = Game(seed=4)
    who = "you bid first" if g.first_bidder == 0 else f"seat {g.first_bidder} bids first"
    assert who in text
    assert "LANDLORD" in text and "farmer" in text            # roles in the table
    assert re.search(r"multiplier x\d+", text)                 # always on the status line
    tables = text.count("┃ seat ┃")
    assert tables >= 2 and text.count("multiplier x") >= tables
    assert "hands at the end" in text and text.rstrip().endswith("bye")


def test_auto_pass_and_no_auto_pass(monkeypatch):
    """Seed 4, seat 1 (a farmer against a landlord who leads big plays): with auto-pass the
    person is never asked when only the pass is legal; without, asked every time."""
    code, text, stdin = _play(["--seed", "4", "--seat", "1"], monkeypatch)
    assert code == 0
    autos = text.count("(auto-pass: nothing in your hand beats")
    assert autos >= 1
    code2, text2, stdin2 = _play(["--seed", "4", "--seat", "1", "--no-auto-pass"], monkeypatch)
    assert code2 == 0 and "auto-pass" not in text2
    asked = sum("to beat" in p for p in stdin.prompts)
    asked2 = sum("to beat" in p for p in stdin2.prompts)
    assert asked2 >= asked and asked2 - asked == autos     # each auto-pass saved one question


def test_question_mark_lists_every_move(monkeypatch):
    """seed 7, seat 0 bids first; after bidding 3 it leads 20 cards: '?' lists all of them."""
    assert Game(seed=7).first_bidder == 0
    code, text, _ = _play(["--seed", "7", "--seat", "0"], monkeypatch, first=["3", "?", "quit"])
    assert code == 0
    g = Game(seed=7)
    g.step(3)
    legal = g.legal_actions()
    assert f"legal: {len(legal)} in all" in text
    listed = re.findall(r"^  [a-z ]+ \((\d+)\): (.*)$", text, re.M)
    assert sum(int(n) for n, _ in listed) == len(legal)
    assert sorted(w for _, ws in listed for w in ws.split()) == sorted(str(p) for p in legal)


def test_save_and_play_again(tmp_path, monkeypatch):
    saved = tmp_path / "hand.json"
    log = tmp_path / "all.jsonl"
    code, text, _ = _play(["--seed", "2", "--seat", "2", "--save", str(log)], monkeypatch,
                          after=["s", str(saved), "y", "n"])
    assert code == 0
    assert "hand 1 (seed 2)" in text and "hand 2 (seed " in text
    assert re.search(r"after 2 hands: seat 0 [+-]\d+, seat 1 [+-]\d+, seat 2 \(you\) [+-]\d+", text)
    rec = json.loads(saved.read_text())
    assert rec["seed"] == 2 and Game.from_record(rec).result is not None
    lines = log.read_text().splitlines()
    assert len(lines) == 2 and [json.loads(ln)["seed"] for ln in lines][0] == 2
    code, out, _ = _run_main(["replay", str(log)])
    assert code == 0 and "2 hands replayed and checked" in out


def test_hands_are_shown_at_the_end(monkeypatch):
    code, text, _ = _play(["--seed", "3", "--seat", "0"], monkeypatch)
    assert code == 0
    end = text[text.index("hands at the end"):]
    rows = re.findall(r"│ ([0-2])(?: \(you\))?\s*│ (landlord|farmer)?\s*│ ([^│]*?)\s*│", end)
    assert sorted(r[0] for r in rows) == ["0", "1", "2"]
    assert sum(r[2] == "-" for r in rows) >= 1               # the winner has no card left


def _run_main(argv):
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = main(argv)
    finally:
        sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


# -- through a pseudo-terminal ---------------------------------------------------------------

class Pty:
    """``ddz`` on a pseudo-terminal: what a person types and sees (colours stripped)."""

    def __init__(self, argv, cwd):
        pty = pytest.importorskip("pty")
        master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "ddz.cli"] + argv, stdin=slave,
                                     stdout=slave, stderr=slave, env=_env(TERM="xterm-256color"),
                                     cwd=cwd, close_fds=True)
        os.close(slave)
        self.fd = master
        self.raw = b""
        self.seen = 0       # where the text not yet answered starts

    @property
    def text(self):
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def read_until_prompt(self, timeout=60.0):
        """Read until the output ends with a prompt (``...: ``) or the process ends."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:      # EIO: the child closed the terminal
                    return None
                if not chunk:
                    return None
                self.raw += chunk
                tail = self.text[self.seen:]
                if re.search(r"[:?)\]] $", tail) and not tail.endswith("\n"):
                    prompt = tail.rsplit("\n", 1)[-1]
                    self.seen = len(self.text)
                    return prompt
            elif self.proc.poll() is not None:
                return None
        raise AssertionError(f"no prompt within {timeout} s; the screen:\n{self.text[-2000:]}")

    def send(self, line):
        os.write(self.fd, (line + "\n").encode())

    def close(self):
        try:
            self.proc.wait(timeout=60)
        finally:
            os.close(self.fd)
        return self.proc.returncode


def test_a_session_on_a_pseudo_terminal(tmp_path):
    term = Pty(["play", "--seed", "6", "--seat", "1"], cwd=str(tmp_path))
    after = ["?", "s", "", "n"]           # at the end: an unknown answer, save (default name), quit
    asked_moves = False
    while True:
        prompt = term.read_until_prompt()
        if prompt is None:
            break
        screen = term.text
        if "you lead" in prompt and not asked_moves:
            asked_moves = True
            term.send("?")
            continue
        if "again?" in prompt or "file name" in prompt:
            term.send(after.pop(0))
            continue
        term.send(_answer(prompt, screen, [], []))
    code = term.close()
    text = term.text
    assert code == 0, text[-3000:]
    assert "you are seat 1" in text and "bids first" in text
    assert "┃ seat ┃" in text and "multiplier x" in text and "your hand: " in text
    assert "hands at the end" in text and "say y, s or n" in text
    saved = tmp_path / "ddz-hand-6.json"
    assert f"record saved to {saved.name}" in text
    assert Game.from_record(json.loads(saved.read_text())).result is not None
    if asked_moves:
        assert re.search(r"legal: \d+ in all", text)
    assert "\x1b[" in term.raw.decode("utf-8", "replace")   # a terminal gets colours


# -- replay, selfplay, switches ---------------------------------------------------------------

def _records(tmp_path, n=30, *extra):
    path = tmp_path / "g.jsonl"
    code, _, _ = _run_main(["selfplay", "--games", str(n), "--seed", "5", "--quiet", "--out", str(path),
                            *extra])
    assert code == 0
    return path


def test_replay_prints_a_summary_by_default(tmp_path):
    path = _records(tmp_path, 30, "--bots", "random,random,random", "--all-pass", "void")
    recs = [json.loads(ln) for ln in path.read_text().splitlines()]
    code, out, err = _run_main(["replay", str(path)])
    assert code == 0 and err == ""
    assert len(out.splitlines()) == 6 and "hand 1:" not in out
    voids = sum(bool(r["result"]["void"]) for r in recs)
    assert f"30 ({30 - voids} played out, {voids} void, 0 unfinished)" in out
    totals = [sum(r["result"]["scores"][s] for r in recs) for s in range(3)]
    assert "score totals   " + " ".join(f"seat {s} {v:+d}" for s, v in enumerate(totals)) in out
    assert "engine" in out and "30 hands replayed and checked" in out
    code, out, _ = _run_main(["replay", str(path), "-v"])
    assert code == 0 and len(re.findall(r"^hand \d+: ", out, re.M)) == 30 and "bottom:" not in out
    code, out, _ = _run_main(["replay", str(path), "-vv"])
    assert code == 0 and out.count("  bottom: ") == 30


def test_selfplay_counts_void_hands(tmp_path):
    path = _records(tmp_path, 60, "--bots", "random,random,random", "--all-pass", "void")
    voids = sum(bool(json.loads(ln)["result"]["void"]) for ln in path.read_text().splitlines())
    code, out, _ = _run_main(["selfplay", "--games", "60", "--seed", "5", "--quiet", "--bots",
                              "random,random,random", "--all-pass", "void"])
    assert code == 0 and re.search(rf"^void hands\s+{voids}$", out, re.M)


def test_the_engine_is_announced(monkeypatch, tmp_path):
    path = _records(tmp_path, 3)
    code, out, _ = _run_main(["replay", str(path)])
    assert re.search(r"^engine\s+compiled core$", out, re.M) or ddz.core.implementation.NO_EXTENSIONS
    monkeypatch.setattr(ddz.core.implementation, "NO_EXTENSIONS", True)
    for argv in (["replay", str(path)], ["selfplay", "--games", "2", "--quiet", "--seed", "1"]):
        code, out, _ = _run_main(argv)
        assert code == 0 and re.search(r"^engine\s+pure-Python reference \(DDZ_NO_EXTENSIONS is on", out, re.M)


def test_selfplay_ctrl_c_keeps_and_summarises_the_finished_hands(monkeypatch, tmp_path):
    from ddz.search import bots
    real, calls = bots.play_hand, []

    def play_hand(game, players):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(game, players)

    monkeypatch.setattr(bots, "play_hand", play_hand)
    path = tmp_path / "g.jsonl"
    code, out, err = _run_main(["selfplay", "--games", "10", "--seed", "1", "--quiet", "--out", str(path)])
    assert code == 130
    assert re.search(r"^hands\s+3 of 10 \(interrupted\)$", out, re.M)
    assert "landlord win rate" in out and "(3 finished hands)" in out
    assert "interrupted after 3 of 10 hands" in err and "Traceback" not in err
    assert len(path.read_text().splitlines()) == 3


def test_selfplay_real_sigint(tmp_path):
    path = tmp_path / "g.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "ddz.cli", "selfplay", "--games", "100000000",
                             "--seed", "1", "--quiet", "--out", str(path)], env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(tmp_path))
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end and (not path.exists() or path.stat().st_size < 20000):
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    done = int(re.search(r"^hands\s+(\d+) of 100000000 \(interrupted\)$", out, re.M).group(1))
    lines = path.read_text().splitlines()
    assert done >= 1 and len(lines) == done
    assert all(json.loads(ln)["result"] for ln in lines)     # whole records only
    assert "Traceback" not in err


@pytest.mark.parametrize("argv, match", [
    (["selfplay", "--out", ""], "argument --out: a file name is needed ('-' for standard output)"),
    (["selfplay", "--out", "  "], "argument --out: a file name is needed"),
    (["play", "--save", ""], "argument --save: a file name is needed"),
    (["selfplay", "--seed", "-1"], "a seed is an integer 0 .. 2**64 - 1"),
    (["play", "--seed", "-5"], "a seed is an integer 0 .. 2**64 - 1"),
    (["perft", "--seed", "-5"], "a seed is an integer 0 .. 2**64 - 1"),
    (["perft", "--seed", str(2 ** 64)], "a seed is an integer 0 .. 2**64 - 1, got '18446744073709551616'"),
    (["selfplay", "--max-redeals", "-1"], "an integer >= 0"),
    (["selfplay", "--all-pass", "again"], "invalid choice"),
])
def test_dishonest_switches_are_refused(argv, match, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert match in capsys.readouterr().err
