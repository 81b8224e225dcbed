"""``ddz analyze`` (issue 41 item 4): the deal's value table, --json, --record, and errors."""

import json

import pytest

import ddz
from ddz.search.bots import GreedyBot, RandomBot, play_hand
from ddz.core.implementation import NO_EXTENSIONS

#: whole deals are past the pure-Python solver's size (``PURE_PYTHON_MAX_CARDS``): it answers
#: "unknown" there by design, so these tests need the compiled solver
needs_core = pytest.mark.skipif(NO_EXTENSIONS, reason="DDZ_NO_EXTENSIONS=1: whole deals need the compiled solver")

ONE_PLAY = ("33344455566677789", "34567888999TTTJJJ", "QQQKKKKAAAA2222BR", "TJQ")
STRONG = ("B2222AAAKKKK34567", "33444555666777888", "39999TTTTJJJJQQQQ", "8AR")


@needs_core
def test_table_of_a_deal(run_cli):
    code, out, err = run_cli("analyze", *ONE_PLAY, "--node-limit", "20000")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("deal: ")
    assert lines[1].split()[:2] == ["seat", "landlord"]
    assert lines[2].split()[:3] == ["0", "yes", "333444555666777+89TJQ"]
    assert len(lines) == 5


def test_json_shape_and_one_argument_deal(run_cli):
    code, out, _ = run_cli("analyze", "/".join(ONE_PLAY), "--json", "--node-limit", "20000", "--all-moves")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"deal", "seed", "rules", "score", "all_moves", "base", "multiplier", "rows"}
    assert data["all_moves"] is True and data["rows"][0]["moves"] == ["333444555666777+89TJQ"]
    want = ddz.analyze_deal(ONE_PLAY, all_moves=True, node_limit=20_000, time_limit=None).to_dict()
    for got, row in zip(data["rows"], want["rows"]):
        assert {k: v for k, v in got.items() if k != "seconds"} == {k: v for k, v in row.items() if k != "seconds"}


def test_seed_and_score(run_cli):
    code, out, _ = run_cli("analyze", "7", "--node-limit", "2000", "--json")
    data = json.loads(out)
    assert code == 0 and data["seed"] == 7 and data["deal"] == ddz.Game(seed=7).deal.to_json()
    code, out, _ = run_cli("analyze", *ONE_PLAY, "--score", "--node-limit", "20000")
    assert code == 0 and "base 1" in out and "value" in out.splitlines()[2]


def _record_file(tmp_path):
    game = ddz.Game(deal=STRONG, first_bidder=0)
    game.step(3)
    play_hand(game, [RandomBot(seed=0), GreedyBot(), GreedyBot()])
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(game.to_record()) + "\n" + json.dumps(game.to_record()) + "\n")
    return path, game.to_record()


def test_record(run_cli, tmp_path):
    path, record = _record_file(tmp_path)
    want = ddz.lost_at(record, time_limit=None, budget=None, node_limit=200_000)
    code, out, err = run_cli("analyze", "--record", str(path), "--node-limit", "200000", "--budget", "1000",
                             "--time-limit", "1000")
    assert code == 0, err
    assert out.count("record ") == 2 and want.summary() in out
    code, out, _ = run_cli("analyze", "--record", str(path), "--hand", "2", "--json", "--node-limit", "200000",
                           "--budget", "1000", "--time-limit", "1000")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 1
    data = json.loads(lines[0])
    assert data["label"] == "record 2" and data["first_change"] == want.first_change
    assert [m["landlord_wins"] for m in data["moves"]] == [m.landlord_wins for m in want.moves]


@pytest.mark.parametrize("argv, text", [
    (["analyze"], "give a seed or a deal"),
    (["analyze", "x"], "give a seed"),
    (["analyze", "-5"], "seed"),
    (["analyze", "333", "444"], "four parts"),
    (["analyze", "1", "--players", "4"], "three-player"),
    (["analyze", *ONE_PLAY[:3], "TJ2"], "extra"),
    (["analyze", "1", "--score", "--doubling-bombs", "beating"], "doubling_bombs='all'"),
    (["analyze", "1", "--hand", "1"], "--record"),
    (["analyze", "1", "--record", "nowhere.jsonl"], "not both"),
    (["analyze", "--record", "nowhere.jsonl"], "cannot read"),
    (["analyze", "--record", "nowhere.jsonl", "--score"], "--score"),
])
def test_errors_exit_2(run_cli, argv, text):
    code, out, err = run_cli(*argv)
    assert code == 2 and out == ""
    assert err.startswith("ddz: error: ") and text in err


def test_argparse_errors(run_cli):
    with pytest.raises(SystemExit) as exc:
        run_cli("analyze", "1", "--time-limit", "0")
    assert exc.value.code == 2


def test_record_errors(run_cli, tmp_path):
    path, record = _record_file(tmp_path)
    code, _, err = run_cli("analyze", "--record", str(path), "--hand", "3")
    assert code == 2 and "holds 2 hand(s)" in err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(record, actions=record["actions"][:1] + [{"seat": 2, "action": "3"}])))
    code, _, err = run_cli("analyze", "--record", str(bad))
    assert code == 2 and err.startswith("ddz: error: record 1: ")
