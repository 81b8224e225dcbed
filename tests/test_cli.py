"""The ``ddz moves`` and ``ddz classify`` commands (in-process, and one real subprocess)."""

import json
import subprocess
import sys

import pytest

from ddz.cli import EXAMPLE_HAND, main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_moves_example_hand(capsys):
    import ddz
    code, out, _ = run(capsys, "moves")
    assert code == 0
    assert EXAMPLE_HAND in out
    assert out.strip().endswith(f"{ddz.count_legal_moves(EXAMPLE_HAND)} legal moves")


def test_moves_to_beat_and_json(capsys):
    code, out, _ = run(capsys, "moves", "BR", "--to-beat", "2222", "--json")
    assert code == 0
    assert [m["play"] for m in json.loads(out)] == ["pass", "BR"]
    code, out, _ = run(capsys, "moves", "33344455", "--count", "--kickers", "repeat")
    assert code == 0 and out.strip() == "19"


def test_classify(capsys):
    code, out, _ = run(capsys, "classify", "4444B5")
    assert code == 0 and out.strip() == "FOUR_TWO_SINGLES 4444+5B"
    code, out, _ = run(capsys, "classify", "33344456", "--json")
    assert json.loads(out) == {"play": "333444+56", "type": "AIRPLANE_SINGLES", "rank": 1, "length": 2}


@pytest.mark.parametrize("argv, text", [
    (["moves", "333334"], "5 copies"),
    (["moves", "3X"], "unknown card 'X'"),
    (["moves", "2222", "--to-beat", "33334444"], "not a play"),
    (["classify", "33334444"], "not a play"),
])
def test_bad_input_exits_2(capsys, argv, text):
    code, out, err = run(capsys, *argv)
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


def test_console_script_runs():
    proc = subprocess.run([sys.executable, "-m", "ddz.cli", "classify", "BR"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "ROCKET BR"
