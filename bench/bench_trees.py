"""Two source trees of ddz side by side (issue 42: speed must not drop): the Python game
loop of ``bench_calls.py`` part 2, ``Game(seed=...)`` construction and ``VectorGame``, each
tree in its own process, the trees alternated round after round.

Run from the repository root, with a copy of the old tree's ``src/`` (built in place)::

    python bench/bench_trees.py OLD_SRC NEW_SRC [--rounds 5]

Per tree and figure, the median over the rounds of each round's median of 5 runs; times
are this thread's CPU time (``time.thread_time``), so a loaded machine disturbs them less
(say the load, ``uptime``, beside the figures). Rows: ``ids`` and ``plays`` (µs per
decision of ``bench_calls.hand_ids`` / ``hand_plays``, 100 hands), ``openspiel`` (the
same loop in OpenSpiel, unchanged between the trees: the noise floor), ``Game(seed) us``
(µs per construction, 2,000 seeds), ``VectorGame us/step`` (µs per game step, 256 games,
100 random steps), ``VectorGame reset us`` (µs per game of ``reset()``).

``--solver`` (issue 41 item 5): the small solves instead, wall µs, the least of several
rounds (the rounds other jobs disturbed least): ``solve N`` the median over the baseline
file's positions of N cards (../shared/solver/baseline.jsonl; each solved 20 times in a
row at 12 cards, fewer above), ``one node`` (``33/4``), ``1,000 one by one`` and
``solve_batch 1,000`` per position (the 12-card positions ten times over, each distinct
from the last; the batch only where the tree has ``solve_batch``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def child() -> None:
    """One tree's figures, as JSON on stdout (the tree is ``PYTHONPATH``'s)."""
    import random

    import numpy as np

    sys.path.insert(0, HERE)
    import bench_calls as bc  # noqa: E402  (imports ddz from PYTHONPATH)
    import ddz  # noqa: E402
    from ddz.envs.vector import CVectorGame  # noqa: E402

    clock = time.thread_time
    out = {}

    def med(f):
        return statistics.median(f() for _ in range(5))

    def loop(fn, hands=100):
        def one():
            t0 = clock()
            n = sum(fn(10_000 * random.randrange(9) + k) for k in range(hands))
            return (clock() - t0) / n * 1e6
        return one

    random.seed(0)
    for name, fn in [("ids", bc.hand_ids), ("plays", bc.hand_plays), ("openspiel", bc.hand_openspiel)]:
        try:
            fn(0)
        except ImportError:
            continue
        out[name] = med(loop(fn))

    def construct():
        t0 = clock()
        for s in range(2000):
            ddz.Game(bc.R, seed=s)
        return (clock() - t0) / 2000 * 1e6
    construct()
    out["Game(seed) us"] = med(construct)

    def vector():
        g, steps = 256, 100
        v = CVectorGame(g, seed=0)
        rng = np.random.default_rng(0)
        t0 = clock()
        for _ in range(steps):
            ids, off = v.legal_ids()
            v.step(ids[off[:-1] + (rng.random(g) * np.diff(off)).astype(np.int64)])
        return (clock() - t0) / (g * steps) * 1e6
    vector()
    out["VectorGame us/step"] = med(vector)

    def reset():
        v = CVectorGame(256, seed=0, observe=False)
        t0 = clock()
        for _ in range(20):
            v.reset()
        return (clock() - t0) / (256 * 20) * 1e6
    out["VectorGame reset us"] = med(reset)
    print(json.dumps(out))


def child_solver() -> None:
    """The small solves' figures of one tree, as JSON on stdout."""
    import pathlib

    import ddz
    from ddz import Position, solve

    found = [d / "shared" / "solver" / "baseline.jsonl" for d in pathlib.Path(HERE).resolve().parents
             if (d / "shared" / "solver" / "baseline.jsonl").exists()]
    rows = [json.loads(line) for line in found[0].read_text().splitlines() if line.strip()]
    out = {}

    sys.path.insert(0, HERE)
    from bench_solver import least_per_call     # noqa: E402  (imports ddz from PYTHONPATH)

    def per_call(fn, reps, rounds):
        return least_per_call(fn, reps, rounds) * 1e6

    for cards, reps, rounds in ((12, 20, 15), (16, 5, 5), (20, 2, 5), (24, 1, 3), (28, 1, 3)):
        pos = [Position([r["landlord"], r["farmer"]]) for r in rows if r["cards"] == cards]
        for p in pos:
            solve(p)
        out[f"solve {cards}"] = statistics.median(per_call(lambda p=p: solve(p), reps, rounds) for p in pos)
    one = Position(["33", "4"])
    out["one node"] = per_call(lambda: solve(one), 1000, 15)
    big = [Position([r["landlord"], r["farmer"]]) for r in rows if r["cards"] == 12] * 10
    out["1,000 one by one"] = per_call(lambda: [solve(p) for p in big], 1, 7) / len(big)
    if hasattr(ddz, "solve_batch"):
        out["solve_batch 1,000"] = per_call(lambda: ddz.solve_batch(big), 1, 7) / len(big)
    print(json.dumps(out))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", help="the old tree's src/ (built in place)")
    ap.add_argument("new", help="the new tree's src/")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--solver", action="store_true", help="the small solves (issue 41) instead of the game loop")
    args = ap.parse_args(argv)
    res = {"old": [], "new": []}
    for _ in range(args.rounds):
        for tag, src in (("old", args.old), ("new", args.new)):
            env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
            done = subprocess.run([sys.executable, os.path.abspath(__file__),
                                   "--child-solver" if args.solver else "--child"], env=env,
                                  capture_output=True, text=True, check=True)
            res[tag].append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(os.popen("uptime").read().strip())
    for key in res["new"][0]:
        if key not in res["old"][0]:
            print(f"{key:22s} old {'-':>9s}  new {statistics.median(r[key] for r in res['new']):9.3f}")
            continue
        a = statistics.median(r[key] for r in res["old"])
        b = statistics.median(r[key] for r in res["new"])
        print(f"{key:22s} old {a:9.3f}  new {b:9.3f}  new/old {b / a:.3f}")
    if "openspiel" in res["new"][0]:
        for tag in ("old", "new"):
            ratio = statistics.median(r["openspiel"] / r["ids"] for r in res[tag])
            print(f"OpenSpiel / ddz ids loop ({tag}): {ratio:.2f}x")


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        child()
    elif sys.argv[1:] == ["--child-solver"]:
        child_solver()
    else:
        main()
