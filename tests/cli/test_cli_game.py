"""The game commands of ``ddz``: selfplay, play, replay, perft."""

import io
import json
import re
import subprocess
import sys

import pytest

import ddz
from ddz import Game, format_cards
from ddz.cli import main


def test_selfplay_summary_and_records(tmp_path, capsys, monkeypatch, run_cli):
    monkeypatch.setattr("ddz.cli._isatty", lambda stream: True)  # show the progress bar
    out_file = tmp_path / "games.jsonl"
    code, out, err = run_cli("selfplay", "--games", "25", "--seed", "3", "--out", str(out_file))
    assert code == 0
    for key in ("landlord win rate", "mean score seat 0 (greedy)", "bombs per hand",
                "springs per hand", "hands per second"):
        assert key in out
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", err)               # the progress bar (rich)
    assert "25/25 hands" in plain and "selfplay" in plain and plain.endswith("\n")
    lines = out_file.read_text().splitlines()
    assert len(lines) == 25
    scores = [json.loads(line)["result"]["scores"] for line in lines]
    mean0 = sum(s[0] for s in scores) / 25
    assert f"{mean0:+.3f}" in out
    code, out, _ = run_cli("replay", str(out_file), "--brief")
    assert code == 0 and "25 hands replayed and checked" in out


def test_selfplay_is_reproducible_and_takes_rule_options(tmp_path, capsys, run_cli):
    files = []
    for name in ("a", "b"):
        f = tmp_path / f"{name}.jsonl"
        code, _, err = run_cli("selfplay", "--games", "5", "--seed", "9", "--quiet", "--bots",
                            "random,greedy,random", "--bidding", "rob", "--doubling",
                            "--bottom-bonus", "--kickers", "repeat", "--all-pass", "void",
                            "--max-redeals", "3", "--out", str(f))
        assert code == 0 and err == ""
        files.append(f.read_text())
    assert files[0] == files[1]
    rec = json.loads(files[0].splitlines()[0])
    assert rec["rules"] == {"kickers": "repeat", "banned": [], "bidding": "rob", "doubling": True,
                            "bottom_bonus": True, "players": 3, "straights": True, "doubling_bombs": "all",
                            "all_pass": "void", "max_redeals": 3, "first_bidder": "random",
                            "bid_rounds": "once", "wings": "standard",
                            "four_with_two": True, "airplane_rank": "chain", "beat_reading": "play",
                            "chain_from_four": True, "bomb_on_rocket": False}


@pytest.mark.parametrize("argv", [
    ["selfplay", "--games", "0"],
    ["selfplay", "--games", "x"],
    ["selfplay", "--bots", "greedy,random"],
    ["selfplay", "--bots", "greedy,random,clever"],
    ["selfplay", "--seed", "abc"],
    ["selfplay", "--bidding", "auction"],
    ["play", "--seat", "4"],
    ["perft", "--landlord", "5"],
    ["replay"],
])
def test_bad_options_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["solve", "33/44"], ["analyze", "1"], ["serve"]])
@pytest.mark.parametrize("mb", ["0", "-5", "inf", "nan", "x", "2000000"])
def test_table_mb_out_of_range_names_the_option(command, mb, capsys):
    """--table-mb is checked by argparse in every command that takes it: exit 2 and the
    option's own name, before anything is solved or served."""
    with pytest.raises(SystemExit) as exc:
        main(command + ["--table-mb", mb])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument --table-mb:" in err and repr(mb) in err


@pytest.mark.parametrize("command", ["selfplay", "play", "replay", "perft"])
def test_help(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    assert command in capsys.readouterr().out


def test_replay_json_list_and_single_record(tmp_path, capsys, run_cli):
    games = []
    for seed in range(3):
        g = Game(seed=seed)
        while g.current_player is not None:
            g.step(g.timeout_action() if g.phase.value != "bidding" else 3)
        games.append(g.to_record())
    f = tmp_path / "list.json"
    f.write_text(json.dumps(games, indent=1))
    code, out, _ = run_cli("replay", str(f), "-vv")
    assert code == 0 and "3 hands replayed and checked" in out
    assert "seat 0:" in out and "bottom:" in out
    f1 = tmp_path / "one.json"
    f1.write_text(json.dumps(games[0]))
    code, out, _ = run_cli("replay", str(f1))
    assert code == 0 and "1 hand replayed" in out


def test_replay_bad_files_exit_2(tmp_path, capsys, run_cli):
    g = Game(seed=2)
    g.step(3)
    rec = g.to_record()
    rec["actions"].append({"seat": g.current_player, "action": "pass"})  # the leader passes
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(Game(seed=1).to_record()) + "\n" + json.dumps(rec) + "\n")
    code, _, err = run_cli("replay", str(bad))
    assert code == 2
    assert re.search(r"hand 2 .*action 1 \(seat \d", err)
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("{}\nnot json\n")
    code, _, err = run_cli("replay", str(garbage))
    assert code == 2 and "line 2" in err
    code, _, err = run_cli("replay", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err
    empty = tmp_path / "empty.json"
    empty.write_text("")
    assert run_cli("replay", str(empty))[0] == 2
    empty.write_text(" [ ] \n")      # a JSON list of no records is no more a record file
    code, out, err = run_cli("replay", str(empty))
    assert code == 2 and "holds an empty list: no records" in err and "replayed" not in out


def test_perft_command(capsys, run_cli):
    code, out, _ = run_cli("perft", "--seed", "5", "--depth", "3")
    assert code == 0
    g = Game(seed=5, first_bidder=0)
    g.step(3)
    from ddz import perft, divide
    assert f"perft(3) = {perft(g, 3)}" in out
    code, out, _ = run_cli("perft", "--seed", "5", "--depth", "2", "--divide")
    assert code == 0 and len(out.splitlines()) == 2 + len(divide(g, 2))
    code, _, err = run_cli("perft", "--deal", "3", "4", "5", "6")
    assert code == 2 and "17" in err


class ScriptedPlayer(io.StringIO):
    """A stdin that answers the prompts of ``ddz play`` by reading what it printed:
    first some bad input, then pass when allowed and the lowest single when leading."""

    def __init__(self, screen):
        super().__init__()
        self.screen = screen
        self.said = []
        self.bad = ["what", "3456", "BR2222"]   # unknown, not a play, not held (probably)

    def readline(self):
        text = self.screen.getvalue()
        prompt = text.rsplit("\n", 1)[-1]
        if self.bad and "your play" in prompt:
            answer = self.bad.pop(0)
        elif "again?" in prompt:
            answer = "n"
        elif "you lead" in prompt:
            hand = re.findall(r"your hand: ([^\n]+)", text)[-1]
            answer = hand[0]
        elif "bid" in prompt:
            answer = "3"
        else:
            answer = "pass"
        self.said.append(answer)
        return answer + "\n"


def test_play_in_the_terminal(monkeypatch, capsys):
    screen = io.StringIO()
    player = ScriptedPlayer(screen)
    monkeypatch.setattr(sys, "stdin", player)
    monkeypatch.setattr(sys, "stdout", screen)
    code = main(["play", "--seed", "4", "--seat", "1"])
    text = screen.getvalue()
    assert code == 0, text
    assert "you are seat 1" in text
    hands = re.findall(r"your hand: ([^\n]+)", text)
    assert len(hands[0].replace(" ", "")) == 17
    for h in hands:                                          # sorted, one group per rank
        groups = h.split()
        assert "".join(groups) == format_cards("".join(groups))
        assert all(len(set(g)) == 1 for g in groups) and len({g[0] for g in groups}) == len(groups)
    assert "not allowed: unknown card 'w'" in text           # explained, asked again
    assert "not allowed:" in text and "Try again." in text
    assert "you are the landlord" in text or "seat 1 is the landlord" in text
    assert re.search(r"score S = \d+", text) and ("you win" in text or "you lose" in text)


def test_play_stops_cleanly_on_end_of_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("pass\n"))
    code = main(["play", "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 2 and "input ended" in err


def test_play_quit(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\nquit\n"))
    code = main(["play", "--seed", "1", "--seat", "2"])
    out, _ = capsys.readouterr()
    assert code == 0 and "legal:" in out and "bye" in out


def test_ddz_command_runs_as_a_module():
    proc = subprocess.run([sys.executable, "-m", "ddz.cli", "selfplay", "--games", "3",
                           "--quiet", "--seed", "1"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "landlord win rate" in proc.stdout


# -- fixes from the tester's report ------------------------------------------------------

def test_selfplay_progress_only_on_a_terminal(run_cli):
    code, out, err = run_cli("selfplay", "--games", "3", "--seed", "1")
    assert code == 0 and "landlord win rate" in out
    assert err == ""  # stderr is not a TTY here: no \r progress in logs


@pytest.mark.parametrize("where", ["missing-dir/x.jsonl", "."])
def test_selfplay_unwritable_out_exits_2(tmp_path, capsys, where, run_cli):
    target = str(tmp_path / where)
    code, out, err = run_cli("selfplay", "--games", "2", "--out", target, "--quiet")
    assert code == 2 and out == ""
    assert err.startswith("ddz: error: cannot write --out") and err.count("\n") == 1
    assert "Traceback" not in err


@pytest.mark.parametrize("content, match", [
    (b"\xff\xfe{not utf-8", "not UTF-8"),
    (("[" * 100000 + "]" * 100000).encode(), "nested too deeply"),
    (b'{"a": ' + b"9" * 5000 + b"}", "not a record"),
])
def test_replay_unreadable_files_exit_2(tmp_path, capsys, content, match, run_cli):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, err = run_cli("replay", str(path))
    assert code == 2 and err.startswith("ddz: error: ") and match in err and err.count("\n") == 1


@pytest.mark.parametrize("mutate, match", [
    (lambda r: r.update(first_bidder=0.0), "first_bidder"),
    (lambda r: r.update(version=True), "version True"),
    (lambda r: r["rules"].update(foo=1), r"unknown field\(s\) \['foo'\]"),
    (lambda r: r.update(rules={}), "lack field"),
    (lambda r: r["actions"][0].update(seat=True), r"action 0: 'seat' must be an int"),
])
def test_replay_bad_record_values_exit_2(tmp_path, capsys, mutate, match, run_cli):
    g = Game(seed=1, first_bidder=1)
    g.step(3)
    rec = g.to_record()
    mutate(rec)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    code, out, err = run_cli("replay", str(path))
    assert code == 2 and re.search(match, err) and err.startswith("ddz: error: hand 1")


def test_play_rob_word_in_the_play_phase_is_explained(monkeypatch, capsys):
    # seat 0 calls; then, in the play phase, says "rob": explained, asked again
    screen = io.StringIO()
    answers = iter(["call\n", "rob\n", "quit\n"] + ["quit\n"] * 10)

    class Stdin:
        def readline(self):
            return next(answers)

    monkeypatch.setattr(sys, "stdin", Stdin())
    monkeypatch.setattr(sys, "stdout", screen)
    code = main(["play", "--seed", "1", "--seat", "0", "--bidding", "rob", "--bot", "greedy"])
    text = screen.getvalue()
    assert code == 0
    assert ("not allowed: 'rob' is a bidding or doubling action, but the game is in the "
            "play phase") in text
    assert "unknown card" not in text


def test_play_a_single_queen_is_a_play_not_quit(monkeypatch, capsys):
    """'Q' is the queen: only 'quit'/'exit' leave the game (seed 7: seat 0 bids 3, leads)."""
    assert ddz.Game(seed=7).first_bidder == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("3\nQ\nquit\n"))
    assert main(["play", "--seed", "7", "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert "your hand: 3 4 66 7 88 99 TT JJ QQ KK 22 R\n" in out   # before the lead
    assert "your hand: 3 4 66 7 88 99 TT JJ Q KK 22 R\n" in out    # one Q fewer: played
    assert out.rstrip().endswith("bye")


def test_perft_bad_depth_exits_before_printing(capsys):
    from ddz.cli import main
    with pytest.raises(SystemExit) as exc:
        main(["perft", "--depth", "-1"])
    assert exc.value.code == 2
    assert capsys.readouterr().out == ""


def test_ctrl_c_is_a_quiet_exit(monkeypatch, capsys):
    from ddz import cli

    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "cmd_moves", interrupted)   # build_parser reads it at call time
    assert cli.main(["moves", "3"]) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "Traceback" not in err


def test_help_while_bidding_lists_the_words_to_type(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\nquit\n"))
    assert ddz.Game(ddz.Rules(bidding="rob"), seed=4).first_bidder == 0
    assert main(["play", "--seed", "4", "--seat", "0", "--bidding", "rob"]) == 0
    out = capsys.readouterr().out
    assert "legal: pass, call (2 in all)" in out
    assert "(pass, call)" in out


def test_selfplay_to_stdout_and_replay_from_stdin(monkeypatch, capsys):
    assert main(["selfplay", "--games", "3", "--seed", "4", "--out", "-", "--quiet"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 3 and all(json.loads(ln)["version"] for ln in lines)
    assert "records written to" in err and "standard output" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(out.encode("utf-8"))))
    assert main(["replay", "-", "--brief"]) == 0
    assert "3 hands replayed and checked" in capsys.readouterr().out
