"""The bot protocol (docs/protocol.md) with real subprocess bots: a Python bot served by
``ddz.arena.serve``, a POSIX shell bot, and bots that time out, answer garbage or illegal
actions, or crash — with nothing lost from the other hands."""

import io
import json
import os
import pathlib
import re
import shutil
import sys
import time

import pytest

import ddz
from ddz.arena import ProtocolBot, run, serve

BOTS = pathlib.Path(__file__).parent.parent / "data" / "bots"
PY = sys.executable


def test_a_protocol_bot_plays_exactly_like_the_same_bot_in_process():
    inproc = run(["greedy", "random"], deals=2, seed=3, mode="game")
    piped = run([f"cmd:{PY} -m ddz.arena greedy", "random"], deals=2, seed=3, mode="game")
    assert piped.bots[0]["name"] == "greedy"        # the name its 'ready' gave
    for a, b in zip(inproc.bots, piped.bots):
        assert (a["wp"], a["adp"], a["roles"]) == (b["wp"], b["adp"], b["roles"])
    assert piped.bots[0]["forfeits"] == 0 == piped.bots[0]["timeouts"]


@pytest.mark.skipif(shutil.which("sh") is None or shutil.which("sed") is None, reason="needs sh and sed")
def test_a_shell_bot_plays_full_matches():
    r = run([f"cmd:{BOTS / 'first_legal.sh'}", "random"], deals=1, seed=1, mode="game")
    assert r.hands == 6 and r.bots[0]["forfeits"] == 0 and r.bots[0]["decisions"] > 6
    assert r.bots[0]["name"] == "first-legal-sh"


def test_misbehaving_bots_forfeit_and_the_other_hands_are_intact(tmp_path):
    # per hand the bot picks from its seed: good, garbage, illegal or crash (exit 3), at
    # its second decision
    bad = f"cmd:{PY} {BOTS / 'misbehaving.py'} mixed 2"
    out = tmp_path / "hands.jsonl"
    r = run([bad, "greedy", "random"], deals=3, seed=7, out=str(out))
    assert r.hands == 3 * 3 * 2
    assert {f["kind"] for f in r.forfeits} == {"garbage", "illegal", "crash"}
    assert all(f["bot"] == "misbehaving-mixed" for f in r.forfeits)
    assert r.bots[0]["forfeits"] == len(r.forfeits) > 0 and r.bots[0]["timeouts"] == 0
    records = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(records) == r.hands
    for rec in records:
        a = rec["meta"]["arena"]
        game = ddz.Game.from_record(rec)      # every record replays
        if a["forfeit"] is not None:         # the forfeiting side lost
            seat = a["forfeit"]["seat"]
            assert a["bots"][seat] == "misbehaving-mixed" and not a["won"][seat] and game.result is None
        else:
            assert game.result is not None
    # greedy against random, in the same run, is exactly what it is alone
    alone = run(["greedy", "random"], deals=3, seed=7)
    assert r.pairs[2]["bots"] == ["greedy", "random"]
    assert (r.pairs[2]["wp"], r.pairs[2]["adp"]) == (alone.pairs[0]["wp"], alone.pairs[0]["adp"])


def test_a_slow_bot_gets_the_timeout_action():
    slow = f"cmd:{PY} {BOTS / 'misbehaving.py'} slow 2 0.4"
    out = io.StringIO()
    r = run([slow, "random"], deals=1, seed=1, move_seconds=0.15, out=out)
    assert r.hands == 2 and r.bots[0]["forfeits"] == 0 and r.bots[0]["timeouts"] >= 2
    for line in out.getvalue().splitlines():
        rec = json.loads(line)
        assert ddz.Game.from_record(rec).result is not None        # played to the end
        assert rec["meta"]["arena"]["events"] and {e["event"] for e in rec["meta"]["arena"]["events"]} == {"timeout"}


def test_a_program_that_cannot_start_is_an_error_before_any_hand():
    # the program is looked for before any process starts (tests/arena/test_protocol_checks.py
    # has the programs that start and exit)
    with pytest.raises(ddz.DdzError, match="cannot run '/nonexistent/bot': no such file"):
        run(["cmd:/nonexistent/bot", "random"], deals=2, seed=1)
    with pytest.raises(ddz.DdzError):
        ProtocolBot([])
    with pytest.raises(ddz.DdzError):
        ProtocolBot("x", move_seconds=0)


def test_why_a_bot_forfeited_is_in_the_text_and_a_bot_that_never_starts_is_an_error(run_cli):
    r = run([f"cmd:{PY} {BOTS / 'misbehaving.py'} mixed 2", "greedy"], deals=2, seed=7)
    text = str(r)
    for kind in {f["kind"] for f in r.forfeits}:
        n = sum(f["kind"] == kind for f in r.forfeits)
        assert f"forfeit: misbehaving-mixed: {n} x {kind} (first: " in text
    assert r.never_started() == []
    code, out, err = run_cli("arena", "cmd:/nonexistent/bot", "greedy", "--deals", "1")
    assert code == 2 and out == ""
    assert err == "ddz: error: bot 'cmd:/nonexistent/bot': cannot run '/nonexistent/bot': no such file\n"


@pytest.mark.skipif(shutil.which("sh") is None or shutil.which("sleep") is None, reason="needs sh and sleep")
def test_closing_a_bot_ends_the_programs_it_started(tmp_path):
    # a shell bot that answers 'ready', then leaves a child that would hold our pipes open
    script = tmp_path / "leaves_a_child.sh"
    pid_file = tmp_path / "child.pid"
    script.write_text("#!/bin/sh\nread line\necho '{\"type\":\"ready\",\"protocol\":1}'\n"
                      f"sleep 300 &\necho $! > {pid_file}\nwhile read line; do :; done\n")
    script.chmod(0o755)
    bot = ProtocolBot([str(script)])
    bot._start(ddz.Rules())
    for _ in range(200):
        if pid_file.exists() and pid_file.read_text().strip():
            break
        time.sleep(0.01)
    child = int(pid_file.read_text())
    bot.close()
    for _ in range(200):        # the child is gone (killed with the bot's process group)
        if not _running(child):
            break
        time.sleep(0.01)
    else:
        os.kill(child, 9)
        raise AssertionError("the bot's child outlived it")


def test_an_answer_with_an_id_that_is_no_request_id_is_garbage(tmp_path):
    bot = tmp_path / "string_ids.py"
    bot.write_text("import json, sys\n"
                   "for line in sys.stdin:\n"
                   "    m = json.loads(line)\n"
                   "    if m['type'] == 'hello':\n"
                   "        print(json.dumps({'type': 'ready', 'protocol': 1, 'name': 'string-ids'}), flush=True)\n"
                   "    elif m['type'] == 'act':\n"
                   "        print(json.dumps({'id': str(m['id']), 'action': m['legal'][0]}), flush=True)\n"
                   "    elif m['type'] == 'quit':\n"
                   "        break\n")
    r = run([f"cmd:{PY} {bot}", "greedy"], deals=1, seed=3, move_seconds=5)
    assert r.bots[0]["timeouts"] == 0 and r.bots[0]["forfeits"] == 2
    assert {f["kind"] for f in r.forfeits} == {"garbage"}
    assert all(re.fullmatch(r"the answer's id must be the integer id of the request, (\d+), not '\1'", f["detail"])
               for f in r.forfeits)


def _running(pid):
    """Whether ``pid`` runs (a zombie left for a PID 1 that does not reap counts as ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def test_serve_speaks_the_protocol_in_process():
    game = ddz.Game(ddz.Rules.profile("douzero"), seed=2)
    lines = [json.dumps({"type": "hello", "protocol": 1, "rules": game.rules.to_json(), "players": 3})]
    from ddz.arena.protocol import notation_of, request
    texts, _ = notation_of(game.action_space)
    obs = obs0 = game.observation()
    legal0 = game.legal_actions()
    lines.append(json.dumps({"type": "new_hand", "hand": "0", "seat": obs.seat, "seed": 5}))
    lines.append(json.dumps(request(obs, game.legal_actions(), None, texts, 1)))
    game.step(3)
    obs = game.observation()
    lines.append(json.dumps(request(obs, game.legal_actions(), game.legal_action_ids().tolist(), texts, 2)))
    lines.append(json.dumps({"type": "quit"}))
    out = io.StringIO()
    assert serve(ddz.GreedyBot(), stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out) == 0
    ready, bid, play = [json.loads(x) for x in out.getvalue().splitlines()]
    assert ready == {"type": "ready", "protocol": 1, "name": "GreedyBot"}
    assert bid["id"] == 1 and bid["action"] == {0: "pass", 1: "1", 2: "2", 3: "3"}[ddz.GreedyBot().act(obs0, legal0)]
    want = ddz.GreedyBot().act(obs, game.legal_actions())
    assert play == {"id": 2, "action_id": game.action_space.id(want)}
    with pytest.raises(ddz.DdzError):
        serve(object())
