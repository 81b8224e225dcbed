"""Arena results that last (issue 40): the result file and every earlier format read back,
a resumed run equal to an uninterrupted one, a merge of two halves equal to the whole,
the refusals of merge, the bound on a run's deals, ``ddz arena show / merge / --resume``
and the progress lines written to a log."""

import dataclasses
import io
import json
import pathlib

import pytest

import ddz
import ddz.arena
from ddz.arena import ArenaResult, merge, resume, run
from ddz.arena import runner as arena_runner
from ddz.arena.text import ProgressLines
from ddz.cli import main

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"


@pytest.mark.parametrize("name", ["arena_result_v1.json", "arena_result_v1_sprt.json"])
def test_format_1_files_read_back(name):
    raw = json.loads((DATA / name).read_text())
    r = ArenaResult.load(str(DATA / name))
    assert r.values is None and r.deals == raw["deals"] and r.names == [b["name"] for b in raw["bots"]]
    assert [b["wp"] for b in r.bots] == [b["wp"] for b in raw["bots"]]
    assert "hands per second" in str(r)
    with pytest.raises(ddz.DdzError, match="format 1"):
        resume(r)
    with pytest.raises(ddz.DdzError, match="format 1"):
        merge([r, r])


@pytest.mark.parametrize("name", ["arena_result_v2.json", "arena_result_v2_sprt.json"])
def test_format_2_files_read_back(name):
    """Today's format, checked in: its figures are computed again from its deal values."""
    raw = json.loads((DATA / name).read_text())
    r = ArenaResult.load(str(DATA / name))
    assert raw["format_version"] == 2 and r.values is not None and len(r.values) == r.deals == raw["deals"]
    for mine, theirs in zip(r.bots, raw["bots"]):
        assert mine["name"] == theirs["name"] and mine["wp"] == pytest.approx(theirs["wp"])
        assert mine["adp"] == pytest.approx(theirs["adp"]) and mine["decisions"] == theirs["decisions"]
    assert (r.sprt is None) == (raw["sprt"] is None)
    again = ArenaResult.from_dict(json.loads(json.dumps(r.to_dict())))
    assert again.numbers() == r.numbers()


@pytest.mark.parametrize("data, match", [
    ([1, 2], "not an arena result"),
    ({"bots": [], "mode": "douzero", "format": "ddz arena result", "format_version": 99}, "format 99"),
    ({"bots": [], "mode": "douzero", "format": "other", "format_version": 2}, "known format"),
    ({"bots": [{"name": "x"}], "mode": "douzero", "format": "ddz arena result", "format_version": 2}, "missing"),
])
def test_from_dict_refuses_what_is_not_a_result(data, match):
    with pytest.raises(ddz.DdzError, match=match):
        ArenaResult.from_dict(data)


def test_load_errors(tmp_path):
    with pytest.raises(ddz.DdzError, match="cannot read"):
        ArenaResult.load(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(ddz.DdzError, match="not JSON"):
        ArenaResult.load(str(bad))


def _interrupt_at(monkeypatch, deal):
    """Ctrl-C when the worker reaches ``deal`` (once)."""
    real = arena_runner._Worker.summary
    state = {"done": False}

    def summary(self, d, deal_seed):
        if d == deal and not state["done"]:
            state["done"] = True
            raise KeyboardInterrupt
        return real(self, d, deal_seed)
    monkeypatch.setattr(arena_runner._Worker, "summary", summary)


@pytest.mark.parametrize("mode, sprt", [("douzero", None), ("game", "0,200")])
def test_resumed_run_equals_an_uninterrupted_one(monkeypatch, tmp_path, mode, sprt):
    whole = run(["greedy", "random"], deals=40, seed=7, mode=mode, sprt=sprt)
    path = str(tmp_path / "run.json")
    _interrupt_at(monkeypatch, 13)
    part = run(["greedy", "random"], deals=40, seed=7, mode=mode, sprt=sprt, save=path)
    assert part.interrupted and part.deals == 13
    assert ArenaResult.load(path).numbers() == part.numbers()
    done = resume(path)
    assert not done.interrupted and done.numbers() == whole.numbers()
    assert ArenaResult.load(path).numbers() == whole.numbers()
    assert resume(done).numbers() == whole.numbers()            # nothing left to play


def test_a_merge_of_two_halves_equals_the_whole():
    bots = ["greedy", "random", "random"]
    whole = run(bots, deals=12, seed=4, mode="game")
    first = run(bots, deals=5, seed=4, mode="game")
    second = run(bots, deals=7, seed=4, mode="game", first_deal=5)
    assert merge([second, first]).numbers() == whole.numbers()
    assert whole.ratings is not None and len(whole.ratings) == 3
    other = run(bots, deals=3, seed=5, mode="game")
    pooled = merge([whole, other])
    assert pooled.seed is None and pooled.deals == 15 and "(several)" in str(pooled)
    with pytest.raises(ddz.DdzError, match="several seeds"):
        resume(pooled)


def test_merge_refusals():
    a = run(["greedy", "random"], deals=3, seed=1)
    for other, match in [(run(["greedy", "random"], deals=3, seed=1, first_deal=2), "share deal 2 of seed 1"),
                         (run(["greedy", "greedy"], deals=3, seed=2), "bots"),
                         (run(["greedy", "random"], deals=2, seed=2, mode="game"), "mode"),
                         (run(["greedy", "random"], deals=2, seed=2, rules=dataclasses.replace(
                             ddz.Rules.profile("douzero"), straights=False)), "rules")]:
        with pytest.raises(ddz.DdzError, match=match):
            merge([a, other])
    with pytest.raises(ddz.DdzError):
        merge([])


def test_a_run_too_big_for_a_result_is_refused():
    with pytest.raises(ddz.DdzError, match="at most 1,562,500"):
        run(["greedy", "random"], deals=1_562_501)
    with pytest.raises(ddz.DdzError, match="at most 833,333"):
        run(["greedy", "random", "random"], deals=900_000)


def test_cli_save_show_merge_resume(tmp_path, capsys, monkeypatch):
    a, b, m = (str(tmp_path / f) for f in ("a.json", "b.json", "m.json"))
    assert main(["arena", "greedy", "random", "--deals", "4", "--seed", "2", "--save", a, "--quiet"]) == 0
    assert main(["arena", "greedy", "random", "--deals", "3", "--seed", "2", "--first-deal", "4", "--save", b,
                 "--quiet"]) == 0
    capsys.readouterr()
    assert main(["arena", "show", a]) == 0
    assert "douzero mode, 4 deals" in capsys.readouterr().out
    assert main(["arena", "merge", a, b, "-o", m, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 7 and "deal_values" not in out
    assert ArenaResult.load(m).numbers() == run(["greedy", "random"], deals=7, seed=2).numbers()
    for argv in (["arena", "merge", a], ["arena", "merge", a, a], ["arena", "show"], ["arena", "plot", a]):
        assert main(argv) == 2
    assert "error" in capsys.readouterr().err
    _interrupt_at(monkeypatch, 2)
    assert main(["arena", "greedy", "random", "--deals", "5", "--save", a, "--quiet"]) == 130
    assert "--resume" in capsys.readouterr().err
    monkeypatch.undo()
    assert main(["arena", "--resume", a, "--quiet"]) == 0
    assert ArenaResult.load(a).numbers() == run(["greedy", "random"], deals=5, seed=0).numbers()
    assert main(["arena", "--resume", a, "greedy", "--quiet"]) == 2


def test_progress_lines_for_a_log():
    now = [0.0]
    out = io.StringIO()
    lines = ProgressLines(100, out, first=10, every=60, clock=lambda: now[0])
    for k in range(100):
        now[0] = k * 0.5
        lines.advance()
    text = out.getvalue().splitlines()
    assert len(text) == 1 and text[0].startswith("arena: 21 of 100 deals (21%), 10 s, about 38 s to go")
