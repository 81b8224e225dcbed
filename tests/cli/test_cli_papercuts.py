"""The command line's papercuts of issue 24: ``--profile`` wherever rules are taken (and
which options win), seats checked against the players, output files checked before the
work, redrawn lines only on a terminal, and what the summaries and messages say."""

import dataclasses
import io
import json
import re

import pytest

import ddz
from ddz import Rules, cli
from ddz.search import registry
from ddz.game.render import seat_list

RULE_COMMANDS = {                     # every command that takes rules, with its other arguments
    "moves": ["33344455"],
    "classify": ["333+4"],
    "beats": ["3333", "4444+56"],
    "selfplay": [],
    "play": [],
    "perft": [],
    "solve": ["KK5543", "225543"],
}


def _rules_of(argv):
    return cli._rules(cli.build_parser().parse_args(argv))


# -- --profile ------------------------------------------------------------------------------

@pytest.mark.parametrize("command", sorted(RULE_COMMANDS))
@pytest.mark.parametrize("name", Rules.profiles())
def test_every_command_that_takes_rules_takes_a_profile(command, name):
    assert _rules_of([command, *RULE_COMMANDS[command], "--profile", name]) == Rules.profile(name)
    assert _rules_of([command, *RULE_COMMANDS[command]]) == Rules()       # no option: the defaults


def test_profile_counts_moves_as_the_profile(run_cli):
    code, out, _ = run_cli("moves", "44445566", "--count", "--profile", "OpenSpiel")   # any case
    rules = Rules.profile("openspiel")
    assert code == 0 and int(out) == ddz.count_legal_moves("44445566", rules=rules) == 12
    assert ddz.count_legal_moves("44445566") == 15       # so the profile made the difference


def test_explicit_options_override_the_profile():
    # a move option the profile fixes (OpenSpiel has no four-with-two)
    assert _rules_of(["moves", "--profile", "openspiel", "--four-with-two"]) == \
        dataclasses.replace(Rules.profile("openspiel"), four_with_two=True)
    # a game option the profile only defaults (OpenSpiel voids a hand everybody passes)
    r = _rules_of(["selfplay", "--profile", "openspiel", "--all-pass", "redeal", "--doubling"])
    assert r == Rules.profile("openspiel", all_pass="redeal", doubling=True)
    assert r.first_bidder == "face_up" and r.kickers == "repeat"      # the rest is the profile's
    # options that change the profile's other defaults (rounds are a rule of bids of points)
    assert _rules_of(["play", "--profile", "openspiel", "--bidding", "rob"]) == \
        Rules.profile("openspiel", bidding="rob")
    # both spellings of an on/off option exist, so either value can override
    assert _rules_of(["moves", "--profile", "openspiel", "--no-bomb-on-rocket"]).bomb_on_rocket is False
    assert _rules_of(["moves", "--bomb-on-rocket", "--no-straights"]) == Rules(bomb_on_rocket=True, straights=False)


def test_profile_records_and_errors(run_cli, tmp_path):
    out = tmp_path / "h.jsonl"
    code, _, _ = run_cli("selfplay", "--games", "2", "--seed", "1", "--profile", "douzero", "--out", str(out))
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert code == 0 and all(Rules.from_json(r["rules"]) == Rules.profile("douzero") for r in recs)
    code, _, err = run_cli("moves", "--profile", "openspiel", "--kickers", "distinct")   # trios need repeat
    assert code == 2 and err.startswith("ddz: error:") and "kickers" in err
    with pytest.raises(SystemExit) as exit_:
        cli.build_parser().parse_args(["moves", "--profile", "pokerstars"])
    assert exit_.value.code == 2


# -- seats, files, progress -----------------------------------------------------------------

def test_perft_landlord_is_checked_against_the_players(run_cli):
    code, out, err = run_cli("perft", "--landlord", "3", "--depth", "1")
    assert code == 2 and out == "" and "--landlord 3 is no seat of a 3-player game (0..2)" in err
    assert "first_bidder" not in err
    code, out, _ = run_cli("perft", "--landlord", "3", "--players", "4", "--depth", "1")
    assert code == 0 and out.startswith("landlord seat 3;")


def test_play_save_is_checked_before_the_hand(run_cli, tmp_path, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("3\n" * 50))
    code, out, err = run_cli("play", "--seed", "1", "--save", str(tmp_path / "missing" / "x.jsonl"))
    assert code == 2 and "cannot write --save" in err and "missing" in err
    assert out == ""                          # refused before any hand was dealt
    # a file that can be written: nothing changes until a hand is finished
    kept = tmp_path / "kept.jsonl"
    kept.write_text("old\n")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, _, _ = run_cli("play", "--seed", "1", "--save", str(kept))
    assert code == 0 and kept.read_text() == "old\n"


def test_out_and_save_share_one_check(run_cli, tmp_path, monkeypatch):
    seen = []
    real = cli._open_output

    def spy(path, flag, mode):
        seen.append((flag, mode))
        return real(path, flag, mode)

    monkeypatch.setattr(cli, "_open_output", spy)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    run_cli("selfplay", "--games", "1", "--out", str(tmp_path / "a.jsonl"))
    run_cli("play", "--save", str(tmp_path / "b.jsonl"))
    assert seen == [("--out", "w"), ("--save", "a")]
    code, _, err = run_cli("selfplay", "--games", "1", "--out", str(tmp_path))        # a directory
    assert code == 2 and "cannot write --out" in err


def _slow_solve(monkeypatch):
    """``ddz.solve`` that reports progress (as a long search does) before answering."""
    import ddz.search.solver
    real = ddz.search.solver.solve

    def solve(pos, progress=None, **kw):
        progress(1234, 5.0)
        return real(pos, **kw)

    monkeypatch.setattr(ddz.search.solver, "solve", solve)


def test_solve_progress_only_on_a_terminal(run_cli, monkeypatch):
    _slow_solve(monkeypatch)
    code, out, err = run_cli("solve", "KK5543", "225543")        # stderr captured: not a terminal
    assert code == 0 and "wins" in out and err == ""
    monkeypatch.setattr(cli, "_isatty", lambda stream: True)
    code, out, err = run_cli("solve", "KK5543", "225543")
    assert code == 0 and err == "\rsolving: 1,234 positions, 5.0 s\n"


def test_no_progress_writer_redraws_into_a_file(run_cli, tmp_path):
    out = tmp_path / "h.jsonl"
    for argv in (["selfplay", "--games", "3", "--seed", "2", "--out", str(out)], ["replay", str(out)],
                 ["solve", "KK5543", "225543"]):
        code, _, err = run_cli(*argv)
        assert code == 0 and "\r" not in err and err == "", argv


# -- what the commands say ------------------------------------------------------------------

def test_bot_names_are_the_bots(run_cli):
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices
    bots_help = next(a.help for a in sub["selfplay"]._actions if a.dest == "bots")
    bot_help = next(a.help for a in sub["play"]._actions if a.dest == "bot")
    assert all(name in bots_help and name in bot_help for name in registry.names())
    assert parser.parse_args(["play", "--bot", "solver"]).bot == "solver"
    assert parser.parse_args(["play", "--bot", "Expert:samples=3"]).bot == "expert:samples=3"


def _help(capsys, *argv):
    with pytest.raises(SystemExit):
        cli.main([*argv, "--help"])
    return capsys.readouterr().out


def test_play_does_not_say_two_bots_for_four_players(capsys):
    text = _help(capsys) + _help(capsys, "play")
    assert "two bots" not in text and "(two, or three with --players 4)" in text
    assert "between three bots" not in _help(capsys, "selfplay")


def test_play_with_four_players_names_three_bots(run_cli, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, _ = run_cli("play", "--players", "4", "--seed", "3")
    assert code == 0 and "seats 1, 2, 3 are greedy bots" in out


def test_selfplay_summary_shows_the_rules_that_matter(run_cli):
    code, out, _ = run_cli("selfplay", "--players", "4", "--games", "2", "--seed", "1")
    row = next(ln for ln in out.splitlines() if ln.startswith("rules"))
    assert code == 0 and row.split(None, 1)[1] == "4 players, the default rules"
    assert "four_with_two" not in out and "kickers" not in out
    code, out, _ = run_cli("selfplay", "--games", "2", "--seed", "1", "--kickers", "repeat", "--doubling")
    row = next(ln for ln in out.splitlines() if ln.startswith("rules"))
    assert row.split(None, 1)[1] == "3 players, kickers=repeat doubling=True"
    code, out, _ = run_cli("selfplay", "--games", "1", "--seed", "1", "--banned", "BOMB,ROCKET")
    assert "banned=BOMB,ROCKET" in out


def test_match_wins_and_ties_add_up_to_the_matches(run_cli, tmp_path):
    path = tmp_path / "m.jsonl"
    code, out, _ = run_cli("selfplay", "--match", "2", "--games", "12", "--seed", "3",
                           "--bots", "random,random,random", "--out", str(path))
    assert code == 0
    winners = []
    for line in path.read_text().splitlines():
        totals = json.loads(line)["totals"]
        winners.append([s for s, v in enumerate(totals) if v == max(totals)])
    ties = sum(len(w) > 1 for w in winners)
    assert ties > 0                                  # farmers share a hand's score: ties happen
    rows = dict(re.findall(r"^(match wins seat \d|tied matches)\S* *(?:\(\w+\))? +(\d+) of 12", out, re.M))
    for s in range(3):
        assert int(rows[f"match wins seat {s}"]) == sum(w == [s] for w in winners)
        shared = sum(len(w) > 1 and s in w for w in winners)
        row = next(ln for ln in out.splitlines() if ln.startswith(f"match wins seat {s}"))
        assert (f"(and {shared} tied)" in row) == (shared > 0)
    assert int(rows["tied matches"]) == ties
    assert sum(int(v) for v in rows.values()) == 12


def test_seat_lists_read_as_english():
    assert seat_list([2]) == "seat 2"
    assert seat_list([1, 2]) == "seats 1 and 2"
    assert seat_list([1, 2, 3]) == "seats 1, 2 and 3"


def test_four_player_farmers_win_in_one_list():
    """``ddz play``'s end of a four-player hand the farmers won: one list of seats."""
    from ddz.terminal import PlaySession
    rules = Rules.four_player()
    for seed in range(60):
        game = ddz.search.bots.play_hand(ddz.Game(rules, seed=seed), [ddz.RandomBot(seed)] * 4)
        if game.result.winner == "farmers":
            break
    else:                                            # pragma: no cover
        pytest.fail("no farmers' win in 60 hands")
    out = io.StringIO()
    PlaySession(rules, game.result.landlord, "greedy", 0, io.StringIO(), out).show_end(game)
    text = out.getvalue()
    farmers = [s for s in range(4) if s != game.result.landlord]
    assert f"{seat_list(farmers)} won (farmers): you lose." in text
    assert " and seat " not in text


def test_solve_many_and_solve_agree_in_number(run_cli, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("KK5543/225543\n3/4/5 to_move=1 to_beat=33 last=0\n")
    code, out, _ = run_cli("solve-many", str(path))
    lines = out.splitlines()
    assert code == 0 and ": the landlord to move wins" in lines[0] and ": the farmer to move loses" in lines[1]
    assert not re.search(r"to move (win|lose)\b", out)
    code, out, _ = run_cli("solve", "3", "4", "5", "--to-move", "1", "--to-beat", "33", "--last", "0")
    assert "seat 1 (a farmer) to move loses" in out


def test_solve_takes_the_one_line_form_it_prints(run_cli):
    code, out, _ = run_cli("solve", "KK5543", "225543", "--landlord", "1", "--json")
    printed = json.loads(out)["position"]
    assert code == 0 and printed == "3455KK/345522 landlord=1"
    for argv in ([printed], printed.split()):       # quoted, or as separate words
        code, again, _ = run_cli("solve", *argv, "--json")
        assert code == 0 and json.loads(again) | {"seconds": 0} == json.loads(out) | {"seconds": 0}
    code, out, _ = run_cli("solve", "3/4/5 to_move=1 to_beat=33 last=0")
    assert code == 0 and "seat 1 (a farmer) to move loses" in out
    # rule options apply to a text that names no rule; fields given twice are refused
    code, out, _ = run_cli("solve", "33/44", "--kickers", "repeat")
    assert code == 0 and "position: 33/44 kickers=repeat" in out
    for seat in ("1", "0"):                         # an explicit --landlord 0 too (the default is no option)
        code, _, err = run_cli("solve", "KK5543/225543 landlord=1", "--landlord", seat)
        assert code == 2 and "not both: --landlord" in err
    code, _, err = run_cli("solve", "34/5555/6 kickers=repeat", "--kickers", "distinct")
    assert code == 2 and "names its rules" in err
