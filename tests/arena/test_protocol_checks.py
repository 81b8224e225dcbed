"""The protocol fails fast and says why (issue 40, item 4): a program that does not start
stops the match once, with exit status 2; every field of an answer is checked as
docs/protocol.md says, at once (never after the move's time); names are printable and
bounded; ``new_hand`` carries the seed as text. Real subprocess bots
(tests/data/bots/answer_with.py changes one field of a correct answer)."""

import json
import os
import pathlib
import re
import shutil
import sys

import pytest

import ddz
from ddz.arena import BotStartError, ProtocolBot, bot_spec, run
from ddz.arena.protocol import NAME_LIMIT, Forfeit, answer_of, parse_action, printable_name
from ddz.game.phase import Phase

BOTS = pathlib.Path(__file__).parent.parent / "data" / "bots"
PY = sys.executable
MOVE = 60          # a move's time no check may wait for: a test that waited would take minutes


def answer_with(answer=None, ready=None, log=None):
    cmd = [PY, str(BOTS / "answer_with.py")]
    if answer is not None:
        cmd += ["--answer", json.dumps(answer)]
    if ready is not None:
        cmd += ["--ready", json.dumps(ready)]
    if log is not None:
        cmd += ["--log", str(log)]
    return cmd


def spec(cmd):
    return bot_spec("cmd:" + " ".join(_shell_quote(c) for c in cmd))


def _shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


# -- programs that do not start -------------------------------------------------------

@pytest.mark.skipif(shutil.which("true") is None or shutil.which("false") is None, reason="needs true and false")
@pytest.mark.parametrize("program, status", [("true", 0), ("false", 1)])
def test_a_program_that_exits_before_ready_stops_the_match_once(run_cli, program, status):
    with pytest.raises(BotStartError, match=rf"bot '{program}' did not start: the program exited before "
                                            rf"saying 'ready' \(exit status {status}\)"):
        run([f"cmd:{program}", "greedy"], deals=3, seed=1)
    workers = ("--workers", "2") if status == 0 else ()      # in a worker process too (the pool is slow to start)
    code, out, err = run_cli("arena", f"cmd:{program}", "greedy", "--deals", "3", *workers)
    assert code == 2 and out == ""
    assert err.count("ddz: error:") == 1 and "did not start" in err and "Traceback" not in err


@pytest.mark.parametrize("text, message", [
    ("cmd:'unterminated", "cannot read the command \"'unterminated\": no closing quotation"),
    ("cmd:./no/such/bot", "cannot run './no/such/bot': no such file"),
    ("cmd:no-such-program-ddz", "cannot run 'no-such-program-ddz': no such program on PATH"),
    ("cmd:   ", "needs a program"),
])
def test_a_command_that_cannot_run_is_refused_before_any_process_starts(run_cli, text, message):
    with pytest.raises(ddz.DdzError, match=re.escape(message)):
        bot_spec(text)
    code, out, err = run_cli("arena", text, "greedy", "--deals", "2")
    assert code == 2 and out == "" and err.startswith("ddz: error: ") and message in err


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes (Windows runs any file it can read)")
def test_a_file_that_is_not_executable_is_refused(tmp_path):
    script = tmp_path / "bot.py"
    script.write_text("print('hi')\n")
    with pytest.raises(ddz.DdzError, match="not executable"):
        bot_spec(f"cmd:{script}")


@pytest.mark.skipif(shutil.which("awk") is None, reason="needs awk")
def test_a_block_buffered_bot_is_told_to_flush(tmp_path, run_cli):
    # awk's print to a pipe stays in its buffer: 'ready' never arrives
    script = tmp_path / "buffered.awk"
    script.write_text('/"type":"hello"/ { print "{\\"type\\":\\"ready\\",\\"protocol\\":1}" }\n'
                      '/"type":"quit"/ { exit }\n')
    code, out, err = run_cli("arena", f"cmd:awk -f {script}", "greedy", "--deals", "4", "--ready-seconds", "0.3")
    assert code == 2 and out == ""
    assert "did not start: no 'ready' within 0.3 s" in err and "must flush after each line" in err
    assert err.count("ddz: error:") == 1


@pytest.mark.parametrize("ready, message", [
    ({"protocol": 99}, "speaks protocol 99; the arena speaks 1"),
    ({"protocol": None}, "speaks protocol None"),
    ({"protocol": "1"}, "speaks protocol '1'"),
    ({"protocol": True}, "speaks protocol True"),
    ({"type": "hello"}, "is not a 'ready' message"),
    ({"name": 7}, "a name that is not a string"),
])
def test_a_ready_of_another_protocol_or_shape_is_refused(ready, message):
    with pytest.raises(BotStartError, match=re.escape(message)):
        run([spec(answer_with(ready=ready)), "greedy"], deals=1, seed=1)


@pytest.mark.skipif(shutil.which("sh") is None or shutil.which("sed") is None, reason="needs sh and sed")
def test_a_program_that_played_and_cannot_start_again_forfeits_the_hand(tmp_path):
    # start 1 says 'ready' and exits at its first request; start 2 exits at once; later
    # starts play (first_legal.sh). Deal 0, table 0: start 1 (a crash); table 1: the
    # restart fails (a start forfeit, not an error: this program played before)
    count = tmp_path / "starts"
    script = tmp_path / "flaky.sh"
    script.write_text(f"#!/bin/sh\nn=$(cat '{count}' 2>/dev/null || echo 0)\nn=$((n + 1))\necho $n > '{count}'\n"
                      "[ $n -eq 2 ] && exit 4\n"
                      f"[ $n -ge 3 ] && exec sh '{BOTS / 'first_legal.sh'}'\n"
                      "read line\necho '{\"type\":\"ready\",\"protocol\":1,\"name\":\"flaky\"}'\n"
                      "read line\nread line\nexit 3\n")
    script.chmod(0o755)
    r = run([f"cmd:{script}", "greedy"], deals=1, seed=1, move_seconds=MOVE)
    assert [f["kind"] for f in r.forfeits] == ["crash", "start"]
    assert r.forfeits[1]["detail"] == "the program exited before saying 'ready' (exit status 4)"
    assert r.never_started() == []


# -- answers ----------------------------------------------------------------------------

@pytest.mark.parametrize("answer, detail", [
    ({"id": -1}, r"the answer's id must be the integer id of the request, \d+, not -1"),
    ({"id": 0}, r"the answer's id must be the integer id of the request, \d+, not 0"),
    ({"id": 10 ** 6}, r"the answer's id must be the integer id of the request, \d+, not 1000000"),
    ({"id": None}, r"the answer has no 'id' \(the request's is \d+\)"),
    ({"id": 1.0}, r"the answer's id must be the integer id of the request, \d+, not 1.0"),
    ({"id": True}, r"the answer's id must be the integer id of the request, \d+, not True"),
    ({"action_id": 0}, r"(gives both 'action' and 'action_id'|action_id is for the play phase)"),
    ({"action": None}, r"the answer has no 'action' or 'action_id'"),
    ({"action": ["pass"]}, r"'action' must be a str"),
])
def test_every_answer_field_is_checked_at_once(answer, detail):
    r = run([spec(answer_with(answer=answer)), "greedy"], deals=1, seed=3, mode="game", move_seconds=MOVE)
    assert r.bots[0]["timeouts"] == 0 and r.bots[0]["forfeits"] == 6
    assert {f["kind"] for f in r.forfeits} == {"garbage"}
    assert all(re.search(detail, f["detail"]) for f in r.forfeits), r.forfeits[0]["detail"]


def test_a_conflicting_pair_in_the_play_phase_is_refused():
    # douzero mode starts in the play phase: action and action_id both given
    r = run([spec(answer_with(answer={"action_id": 0})), "greedy"], deals=1, seed=3, move_seconds=MOVE)
    assert {f["detail"].split(":")[0] for f in r.forfeits} == {"the answer gives both 'action' and 'action_id' (give one)"}
    assert r.bots[0]["timeouts"] == 0


def test_answer_ids_in_process():
    assert answer_of(b'{"id": 3, "action": "pass"}', 3) == {"id": 3, "action": "pass"}
    assert answer_of(b'{"id": 2, "action": "pass"}', 3, late={2}) is None      # timed out: ignored
    for line in (b'{"id": 2, "action": "pass"}', b'{"id": 3.0}', b'{"id": "3"}', b'[3]', b'3', b'{',
                 b'{"action": "pass"}', b'{"id": -3}', b'{"id": 4}', b'{"id": null}'):
        with pytest.raises(Forfeit) as exc:
            answer_of(line, 3, late={1})
        assert exc.value.kind == "garbage"
    game = ddz.Game(seed=1)
    legal = game.legal_actions()
    for answer in ({"id": 1, "action": "pass", "action_id": 0}, {"id": 1}, {"id": 1, "action_id": 0},
                   {"id": 1, "action": {"bid": 1}}):
        with pytest.raises(Forfeit) as exc:
            parse_action(answer, legal, None, {}, Phase.BIDDING, game.rules)
        assert exc.value.kind == "garbage"
    assert parse_action({"id": 1, "action": "pass"}, legal, None, {}, Phase.BIDDING, game.rules) == 0


def test_a_late_answer_is_ignored_and_a_second_answer_is_garbage(tmp_path):
    # answers every request twice: the second copy arrives while the next request waits
    script = tmp_path / "twice.py"
    script.write_text("import json, sys\n"
                      "for line in sys.stdin:\n"
                      "    m = json.loads(line)\n"
                      "    if m['type'] == 'hello':\n"
                      "        print(json.dumps({'type': 'ready', 'protocol': 1}), flush=True)\n"
                      "    elif m['type'] == 'act':\n"
                      "        a = json.dumps({'id': m['id'], 'action': m['legal'][0]})\n"
                      "        print(a + '\\n' + a, flush=True)\n"
                      "    elif m['type'] == 'quit':\n"
                      "        break\n")
    r = run([f"cmd:{PY} {script}", "greedy"], deals=1, seed=3, mode="game", move_seconds=MOVE)
    assert {f["kind"] for f in r.forfeits} == {"garbage"} and r.bots[0]["timeouts"] == 0
    assert all("not " in f["detail"] for f in r.forfeits)


# -- names and seeds --------------------------------------------------------------------

def test_names_are_printable_and_bounded(tmp_path):
    evil = "\x1b[31mred\x1b[0m\nbot\r\t\u202e" + "x" * 200
    r = run([spec(answer_with(ready={"name": evil})), "greedy"], deals=1, seed=1, move_seconds=MOVE)
    name = r.bots[0]["name"]
    assert name.isprintable() and len(name) == NAME_LIMIT and name.startswith("\\x1b[31mred\\x1b[0m\\x0abot")
    text = str(r)
    assert "\x1b" not in text and "\r" not in text and "\u202e" not in text
    assert len(text.splitlines()) == len(str(run(["random", "greedy"], deals=1, seed=1)).splitlines())
    assert printable_name("") == "?" and printable_name("é漢 ok") == "é漢 ok"
    assert ProtocolBot(["x"], name="a\nb").name == "a\\x0ab"


@pytest.mark.skipif(os.name != "posix", reason="file names with control characters (POSIX)")
def test_a_programs_file_name_is_printable(tmp_path):
    # the program's file name, the bot's name before it says 'ready'
    link = tmp_path / "bot\x1b[2Jname"
    link.symlink_to(BOTS / "answer_with.py")
    assert bot_spec(f"cmd:{PY} '{link}'").name == printable_name(os.path.basename(PY))
    exe = tmp_path / "run\x1b[2J\nme"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    assert bot_spec(f"cmd:'{exe}'").name == "run\\x1b[2J\\x0ame"


def test_new_hand_carries_the_seed_as_text(tmp_path):
    log = tmp_path / "received.jsonl"
    run([spec(answer_with(log=log)), "greedy"], deals=2, seed=5, move_seconds=MOVE)
    hands = [m for m in map(json.loads, log.read_text().splitlines()) if m["type"] == "new_hand"]
    assert len(hands) == 2 * 3          # per deal, 2 tables: the bot at one seat, then at two
    assert all(type(m["seed"]) is int and m["seed_text"] == str(m["seed"]) for m in hands)
    assert any(m["seed"] > 2 ** 53 for m in hands)      # a JavaScript number would lose its low bits
