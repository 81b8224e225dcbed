"""ddz.distributed (issue 13): self-play and solving fanned out over Ray give the records
(solutions) of one process, in the same order, for any number of workers; the CLI's
``--ray``; ``import ddz`` never imports Ray.

Ray starts once for the module (``ray_cluster``: a local cluster of two CPUs, about 5-20 s);
the tests that need it skip one by one when Ray is not installed.
"""

import dataclasses
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import ddz
from ddz import DdzError, Game, Match, Position, Rules, solve
from ddz import distributed
from ddz.distributed import hand_seeds, iter_selfplay, selfplay, solve_many

# small positions: at most 14 cards, so that the pure-Python solver takes them too
POSITIONS = [
    "KK54/225",
    "34567/TT",
    "9TJQK/33/A",
    "33/44/55 landlord=1",
    "AA2/KKQ/JJ3 to_move=1",
    "77/8/99 to_move=2 to_beat=6 last=0",
    "TT9/QQ/88 landlord=2",
    "345/66/7",
]


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()


def _same(solutions):
    """Solutions without their wall times (the only fields that may differ)."""
    return [dataclasses.replace(s, seconds=0.0, search_seconds=0.0) for s in solutions]


# -- in one process ---------------------------------------------------------------------

def test_import_ddz_never_imports_ray():
    code = ("import sys, ddz, ddz.cli, ddz.distributed as d\n"
            "recs = d.selfplay(2, seed=1)\n"
            "sols = d.solve_many(['33/44'])\n"
            "assert len(recs) == 2 and sols[0].exact\n"
            "print('ray' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_hand_seeds_are_the_seed_sequence_children():
    seeds = hand_seeds(11, 6)
    children = np.random.SeedSequence(11).spawn(6)
    assert seeds == [int(c.generate_state(5, np.uint64)[0]) >> 1 for c in children]
    assert hand_seeds(11, 3) == seeds[:3]                  # a hand's seed depends on (seed, i) only
    assert len(set(seeds)) == 6 and all(0 <= s < 2 ** 63 for s in seeds)
    assert set(hand_seeds(12, 6)).isdisjoint(seeds)
    assert hand_seeds(0, 0) == []


def test_records_depend_only_on_the_seed_and_the_index():
    recs = selfplay(6, seed=5, bots=("random", "greedy", "random"))
    assert [r["seed"] for r in recs] == hand_seeds(5, 6)
    assert selfplay(4, seed=5, bots=("random", "greedy", "random")) == recs[:4]
    for rec in recs:
        assert Game.from_record(rec).to_record() == rec          # each replays
    other = selfplay(6, seed=6, bots=("random", "greedy", "random"))
    assert [r["deals"] for r in other] != [r["deals"] for r in recs]
    assert json.loads(json.dumps(recs)) == recs                  # JSON as they are


def test_matches_and_other_rules():
    rules = Rules(bidding="rob", doubling=True, all_pass="void")
    recs = selfplay(3, seed=2, bots=("greedy", "random", "random"), rules=rules, match=2)
    assert [r["format"] for r in recs] == ["ddz-match"] * 3
    assert [r["seed"] for r in recs] == hand_seeds(2, 3)
    for rec in recs:
        assert Match.from_record(rec).to_record() == rec
        assert Rules.from_json(rec["rules"]) == rules
    four = selfplay(2, seed=1, bots=("random",) * 4, rules=Rules(players=4))
    assert [Game.from_record(r).seats for r in four] == [4, 4]


def test_solve_many_in_process_is_solve_one_by_one():
    positions = [Position.parse(p) for p in POSITIONS]
    expected = _same([solve(p, score=True, all_moves=True) for p in positions])
    assert _same(solve_many(positions, score=True, all_moves=True)) == expected
    assert _same(solve_many(POSITIONS, score=True, all_moves=True, workers=1)) == expected  # text too
    assert solve_many([]) == []


@pytest.mark.parametrize("call, message", [
    (lambda: selfplay(-1), "games must be an integer >= 0"),
    (lambda: selfplay(2.0), "games must be an integer >= 0"),
    (lambda: selfplay(True), "games must be an integer >= 0"),
    (lambda: selfplay(2, seed=-3), "seed must be an integer >= 0"),
    (lambda: selfplay(2, workers=-1), "workers must be an int >= 0"),
    (lambda: selfplay(2, workers="2"), "workers must be an int >= 0"),
    (lambda: selfplay(2, workers=2, ray=False), "workers=2 needs Ray"),
    (lambda: selfplay(2, ray="yes"), "ray must be True, False or None"),
    (lambda: selfplay(2, chunk=0), "chunk must be an integer >= 1"),
    (lambda: selfplay(2, match=0), "match must be an integer >= 1"),
    (lambda: selfplay(2, bots=("random", "random")), "bots names 2 bots, but 3 players play"),
    (lambda: selfplay(2, bots=("random", "clever", "random")), "bots[1]: unknown bot 'clever'"),
    (lambda: selfplay(2, bots="random"), "bots must be a list of bot specs"),
    (lambda: selfplay(2, rules="standard"), "rules must be a ddz.Rules"),
    (lambda: hand_seeds(1, -1), "games must be an integer >= 0"),
    (lambda: solve_many(["33/44"], progress=print), "not progress"),
    (lambda: solve_many(["33/44"], node_limit=0), "node_limit must be positive"),
    (lambda: solve_many(["33/44", "33/44/55/66"]), "position 1: a position has two or three hands"),
    (lambda: solve_many(["33/44", 7]), "position 1 is not a ddz.Position"),
    (lambda: solve_many("33/44"), "positions must be a list"),
    (lambda: solve_many(["33/44"], workers=-1), "workers must be an int >= 0"),
])
def test_bad_arguments_raise_ddz_errors(call, message):
    with pytest.raises(DdzError) as exc:
        call()
    assert message in str(exc.value)


def test_the_pure_solver_limit_is_checked_before_any_work(monkeypatch):
    import ddz.search.solver
    monkeypatch.setattr(ddz.search.solver, "_solver", None)
    big = "3456789TJQK/34567/8"
    with pytest.raises(DdzError, match="position 1 has 17 cards"):
        solve_many(["33/44", big])
    assert solve_many([big], node_limit=10)[0].nodes >= 0     # with a limit it runs


def test_without_ray_a_clear_error(monkeypatch, run_cli):
    monkeypatch.setitem(sys.modules, "ray", None)               # `import ray` fails
    for call in (lambda: selfplay(4, workers=2), lambda: solve_many(["33/44"], workers=2),
                 lambda: iter_selfplay(4, ray=True)):
        with pytest.raises(DdzError, match=r"pip install 'ddz\[ray\]'"):
            call()
    assert len(selfplay(2, workers=1)) == 2                      # one worker needs no Ray
    code, out, err = run_cli("selfplay", "--games", "2", "--quiet", "--ray")
    assert code == 2 and "pip install 'ddz[ray]'" in err and out == ""


# -- on Ray ---------------------------------------------------------------------------

def test_ray_selfplay_gives_the_records_of_one_process(ray_cluster):
    bots = ("greedy", "random", "random")
    here = selfplay(12, seed=3, bots=bots)
    assert selfplay(12, seed=3, bots=bots, workers=2) == here
    assert selfplay(12, seed=3, bots=bots, workers=1, ray=True, chunk=5) == here
    assert selfplay(12, seed=3, bots=bots, workers=2, chunk=100) == here   # one task
    matches = selfplay(3, seed=4, bots=bots, match=2)
    assert selfplay(3, seed=4, bots=bots, match=2, workers=2, chunk=1) == matches


def test_ray_iteration_is_in_order_and_may_stop_early(ray_cluster):
    it = iter_selfplay(40, seed=8, workers=2, chunk=4)
    first = [next(it) for _ in range(5)]
    it.close()                                                   # cancels the rest
    assert first == selfplay(5, seed=8)


def test_ray_solve_many_is_solve_one_by_one(ray_cluster):
    positions = [Position.parse(p) for p in POSITIONS]
    expected = _same([solve(p, all_moves=True) for p in positions])
    assert _same(solve_many(positions, all_moves=True, workers=2)) == expected
    assert _same(solve_many(POSITIONS, all_moves=True, workers=2, chunk=1)) == expected
    with pytest.raises(DdzError, match="time_limit must be positive"):
        solve_many(positions, workers=2, time_limit=0)


# -- the command line -----------------------------------------------------------------

def _summary_rows(text):
    """The summary without the lines that may differ (speed, engine, output file)."""
    return [ln for ln in text.splitlines()
            if not ln.startswith(("hands per second", "engine", "records written"))]


@pytest.mark.parametrize("extra", [(), ("--match", "2", "--players", "4", "--bots", "greedy,random,random,greedy")])
def test_cli_selfplay_ray_writes_the_same_records(ray_cluster, run_cli, tmp_path, extra):
    files, summaries = {}, {}
    for name, use in (("one", ()), ("ray", ("--ray", "--workers", "2"))):
        files[name] = tmp_path / f"{name}.jsonl"
        code, out, err = run_cli("selfplay", "--games", "6", "--seed", "6", "--quiet",
                                 "--out", str(files[name]), *extra, *use)
        assert code == 0, err
        assert ("Ray, 2 workers" in out) == bool(use)
        summaries[name] = _summary_rows(out)
        code, bare, err = run_cli("selfplay", "--games", "6", "--seed", "6", "--quiet", *extra, *use)
        assert code == 0 and _summary_rows(bare) == summaries[name]    # the same without --out
    lines = files["one"].read_text().splitlines()
    assert files["ray"].read_text().splitlines() == lines
    assert summaries["ray"] == summaries["one"]
    bots = tuple(extra[extra.index("--bots") + 1].split(",")) if extra else ("greedy", "random", "random")
    rules = Rules(players=4) if extra else Rules()
    recs = selfplay(6, seed=6, bots=bots, rules=rules, match=2 if extra else None)
    assert [json.loads(x) for x in lines] == recs
    games = [g for r in recs for g in (r["games"] if extra else [r])]
    mean0 = sum(g["result"]["scores"][0] for g in games) / len(games)
    assert any(ln.startswith("mean score seat 0") and ln.endswith(f"{mean0:+.3f}") for ln in summaries["one"])


def test_cli_solve_many(ray_cluster, run_cli, tmp_path):
    path = tmp_path / "positions.txt"
    path.write_text("# endgames\n" + "\n\n".join(POSITIONS) + "\n")
    code, text, err = run_cli("solve-many", str(path), "--json")
    assert code == 0, err
    rows = [json.loads(line) for line in text.splitlines()]
    assert [r["position"] for r in rows] == [str(Position.parse(p)) for p in POSITIONS]
    for row, p in zip(rows, POSITIONS):
        sol = solve(Position.parse(p))
        assert (row["win"], row["moves"], row["nodes"]) == (sol.win, [str(m) for m in sol.moves], sol.nodes)
    code, ray_text, err = run_cli("solve-many", str(path), "--json", "--ray", "--workers", "2")
    assert code == 0, err
    strip = [{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in ray_text.splitlines()]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in rows]
    code, plain, err = run_cli("solve-many", str(path), "--score")
    lines = plain.splitlines()
    assert code == 0 and len(lines) == len(POSITIONS) and f"{len(POSITIONS)} positions" in err
    sol = solve(Position.parse(POSITIONS[0]), score=True)
    assert lines[0].startswith(f"{Position.parse(POSITIONS[0])}: the landlord to move "
                               f"{'wins' if sol.win else 'loses'}, score {sol.value:+d}")


@pytest.mark.parametrize("argv, message", [
    (["selfplay", "--games", "2", "--workers", "2"], "--workers needs --ray"),
    (["solve-many", "{empty}"], "holds no position"),
    (["solve-many", "{bad}"], "line 2: "),
    (["solve-many", "{missing}"], "cannot read"),
])
def test_cli_errors(argv, message, run_cli, tmp_path):
    (tmp_path / "empty").write_text("# nothing\n\n")
    (tmp_path / "bad").write_text("33/44\n33/44/55/66/77\n")
    argv = [a.format(empty=tmp_path / "empty", bad=tmp_path / "bad", missing=tmp_path / "nope")
            for a in argv]
    code, out, err = run_cli(*argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_cli_bad_workers_exit_2(capsys):
    from ddz.cli import main
    with pytest.raises(SystemExit) as exc:
        main(["selfplay", "--ray", "--workers", "-1"])
    assert exc.value.code == 2 and "integer >= 0" in capsys.readouterr().err


def test_distributed_is_not_in_the_package_namespace():
    assert "distributed" not in ddz.__all__ and distributed.__name__ == "ddz.distributed"


def test_readme_block(ray_cluster, capsys):
    from conftest import readme_code
    code = readme_code("Scale out with Ray").replace("200", "8")
    exec(code, {})
    out = capsys.readouterr().out.splitlines()
    recs = selfplay(8, seed=7)
    assert out[0] == str(sum(r["result"]["scores"][0] for r in recs))
    assert out[1] == str([solve(Position.parse(p), score=True).value for p in ("KK54/225", "34/5555/6")])


def test_rllib_doc_wrapper_gives_what_the_masking_module_reads():
    pytest.importorskip("pettingzoo")
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "rllib.md").read_text(encoding="utf-8")
    scope = {}
    exec(re.search(r"```python\n(.*?)```", text, re.S).group(1), scope)
    from ddz.envs.pettingzoo import env
    e = scope["RLlibObservations"](env())
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        space = e.observation_space(agent)
        assert set(obs) == {"observations", "action_mask"} and space.contains(obs)
        assert obs["action_mask"].dtype == np.float32
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == list(np.flatnonzero(e.unwrapped.observe(agent)["action_mask"]))
        e.step(None if terminated or truncated else int(rng.choice(legal)))
        steps += 1
    assert steps > 3 and e.unwrapped.game.result is not None


def test_cli_solve_many_reads_standard_input(monkeypatch, run_cli):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("33/44\n# a comment\n\n345/66/7\n"))
    code, out, err = run_cli("solve-many", "-", "--json")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["position"] for r in rows] == ["33/44", "345/66/7"]
    assert [r["win"] for r in rows] == [solve(Position.parse(p)).win for p in ("33/44", "345/66/7")]


def test_ray_arena_gives_the_numbers_of_one_process(ray_cluster):
    import ddz.arena
    here = ddz.arena.run(["greedy", "random"], deals=12, seed=5, mode="game")
    there = ddz.arena.run(["greedy", "random"], deals=12, seed=5, mode="game", workers=2, ray=True)
    assert there.workers == 2 and here.numbers() == there.numbers()
