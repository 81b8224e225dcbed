"""The ``ddz moves`` and ``ddz classify`` commands (in-process, and one real subprocess)."""

import json
import subprocess
import sys

import pytest

from ddz.cli import EXAMPLE_HAND, main


def test_moves_example_hand(capsys, run_cli):
    import ddz
    code, out, err = run_cli("moves")
    assert code == 0
    assert EXAMPLE_HAND in err
    assert out.strip().endswith(f"{ddz.count_legal_moves(EXAMPLE_HAND)} legal moves")


def test_moves_to_beat_and_json(capsys, run_cli):
    code, out, _ = run_cli("moves", "BR", "--to-beat", "2222", "--json")
    assert code == 0
    assert [m["play"] for m in json.loads(out)] == ["pass", "BR"]
    code, out, _ = run_cli("moves", "33344455", "--count", "--kickers", "repeat")
    assert code == 0 and out.strip() == "19"


def test_classify(capsys, run_cli):
    code, out, _ = run_cli("classify", "4444B5")
    assert code == 0 and out.strip() == "FOUR_TWO_SINGLES 4444+5B"
    code, out, _ = run_cli("classify", "33344456", "--json")
    assert json.loads(out) == {"play": "333444+56", "type": "AIRPLANE_SINGLES", "rank": 1, "length": 2}


@pytest.mark.parametrize("argv, text", [
    (["moves", "333334"], "5 copies"),
    (["moves", "3X"], "unknown card 'X'"),
    (["moves", "2222", "--to-beat", "33334444"], "not a play"),
    (["classify", "33334444"], "not a play"),
])
def test_bad_input_exits_2(capsys, argv, text, run_cli):
    code, out, err = run_cli(*argv)
    assert code == 2
    assert err.startswith("ddz: error:") and text in err
    assert "Traceback" not in err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["moves", "--kickers", "sometimes"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2


@pytest.mark.parametrize("module", ["ddz.cli", "ddz"])
def test_console_script_runs(module):
    proc = subprocess.run([sys.executable, "-m", module, "classify", "BR"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "ROCKET BR"
    bad = subprocess.run([sys.executable, "-m", module, "classify", "XYZ"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("ddz: error:")


def test_moves_example_hand_notice_goes_to_stderr(capsys, run_cli):
    import ddz
    code, out, err = run_cli("moves", "--count")
    assert code == 0 and out.strip() == str(ddz.count_legal_moves(EXAMPLE_HAND))
    assert "no HAND given" in err


@pytest.mark.parametrize("argv, answer", [
    (["3333", "444456"], "yes"),
    (["44445566", "3333"], "no"),
    (["45678", "345678"], "no"),
    (["BR", "2222"], "yes"),
    (["pass", "3"], "no"),
    (["666777+88", "333444+55", "--kickers", "repeat"], "yes"),
])
def test_beats(capsys, argv, answer, run_cli):
    code, out, err = run_cli("beats", *argv)
    assert code == 0 and out == answer + "\n" and err == ""
    code, out, _ = run_cli("beats", *argv, "--json")
    assert code == 0 and json.loads(out)["beats"] is (answer == "yes")


@pytest.mark.parametrize("argv, text", [
    (["3333", "33334444"], "not a play"),
    (["3", "pass"], "nothing beats the pass"),
    (["3x", "4"], "unknown card"),
    (["666777+88", "333444+59"], "not a play"),
    (["333444+55", "333444+66", "--kickers", "repeat"], "the deck holds 4"),
])
def test_beats_bad_input_exits_2(capsys, argv, text, run_cli):
    code, out, err = run_cli("beats", *argv)
    assert code == 2 and out == "" and err.startswith("ddz: error: ") and text in err


def test_moves_take_the_profile_options(run_cli):
    """Every move option has a flag (RULES.md §2.5): off-by-default ones turn on with
    ``--name``, on-by-default ones off with ``--no-name``."""
    code, out, _ = run_cli("moves", "33336666", "--to-beat", "BR", "--kickers", "repeat", "--bomb-on-rocket")
    assert code == 0 and out.split()[-3:] == ["3", "legal", "moves"] and "3333" in out
    counts = [run_cli("moves", "33334567", "--kickers", "repeat", *flag, "--count")[1].strip()
              for flag in ([], ["--no-chain-from-four"])]
    assert int(counts[0]) == int(counts[1]) + 1                  # 34567 starts at the four 3s
    code, out, _ = run_cli("moves", "777888999TTT", "--to-beat", "333444555+666", "--kickers", "repeat",
                           "--wings", "any", "--beat-reading", "cards", "--json")
    assert code == 0 and [m["play"] for m in json.loads(out)] == ["pass", "777888999TTT"]
