"""Endgame solver benchmarks (issue 12), side by side in one run.

* the nine pinned puzzles (tests/data/endgame_puzzles.json), one thread, both kicker rules;
  WZ8 also with two threads;
* random three-player perfect-information endgames of at most 24 cards in all (both
  kicker rules): the distribution of solve times, all exact;
* ``doudizhu-resolver`` (pure Python, ``pip install doudizhu-resolver``) on the same
  puzzles, each in a subprocess with a time cap, when it is installed.

The tables are built and a first solve done before timing (a one-off cost per process);
puzzle times are medians of five solves.

    PYTHONPATH=src python3 bench/bench_solver.py [--random 200] [--resolver-cap 60]
"""
import argparse
import json
import multiprocessing as mp
import pathlib
import statistics
import time

import numpy as np

import ddz
from ddz import REPEAT_KICKERS, STANDARD, Position, solve

ROOT = pathlib.Path(__file__).resolve().parents[1]
PUZZLES = json.loads((ROOT / "tests" / "data" / "endgame_puzzles.json").read_text(encoding="utf-8"))["puzzles"]
CARDS = np.repeat(np.arange(15), [4] * 13 + [1, 1])


def median_of(fn, repeat=5):
    """``(median wall seconds, last result)`` of ``repeat`` calls."""
    times, r = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), r


def puzzles():
    print("## Puzzles (two players, first mover = landlord, win mode)\n")
    print("| puzzle | answer | distinct: ms | nodes | repeat: ms | nodes |")
    print("|---|---|---:|---:|---:|---:|")
    totals = {"distinct": 0.0, "repeat": 0.0}
    for p in PUZZLES:
        row = [p["name"]]
        for rules, name in ((STANDARD, "distinct"), (REPEAT_KICKERS, "repeat")):
            pos = Position([p["first"], p["second"]], rules=rules)
            dt, sol = median_of(lambda: solve(pos))
            assert sol.exact and sol.win is p["first_wins"], p["name"]
            if len(row) == 1:
                row.append("first wins" if sol.win else "first loses")
            totals[name] += dt
            row += [f"{dt * 1e3:.1f}", f"{sol.nodes:,}"]
        print("| " + " | ".join(row) + " |")
    print(f"| **all nine** | | **{totals['distinct'] * 1e3:.0f}** | | **{totals['repeat'] * 1e3:.0f}** | |\n")
    wz8 = next(p for p in PUZZLES if p["name"] == "WZ8")
    pos = Position([wz8["first"], wz8["second"]])
    for threads in (1, 2):
        dt, sol = median_of(lambda: solve(pos, threads=threads))
        print(f"WZ8, {threads} thread{'s' if threads > 1 else ''}: {dt * 1e3:.1f} ms, {sol.nodes:,} nodes, "
              f"first move {sol.moves[0]}")
    print()


def random_endgames(n, seed):
    print(f"## Random three-player endgames, at most 24 cards ({n} per kicker rule, landlord leads)\n")
    print("| kicker rule | exact | min ms | median ms | p90 ms | p99 ms | max ms | landlord wins |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    rng = np.random.default_rng(seed)
    for rules, name in ((STANDARD, "distinct"), (REPEAT_KICKERS, "repeat")):
        times, exact, lw = [], 0, 0
        for _ in range(n):
            total = int(rng.integers(12, 25))
            while True:       # three non-empty hands of at most 20 cards
                cuts = sorted(rng.choice(np.arange(1, total), size=2, replace=False))
                if max(cuts[0], cuts[1] - cuts[0], total - cuts[1]) <= 20:
                    break
            deck = rng.permutation(CARDS)[:total]
            parts = np.split(deck, cuts)
            hands = [np.bincount(x, minlength=15).tolist() for x in parts]
            pos = Position(hands, landlord=int(rng.integers(3)), rules=rules)
            sol = solve(pos)
            times.append(sol.seconds * 1e3)
            exact += sol.exact
            lw += bool(sol.landlord_wins)
        q = np.percentile(times, [0, 50, 90, 99, 100])
        print(f"| {name} | {exact}/{n} | {q[0]:.2f} | {q[1]:.2f} | {q[2]:.2f} | {q[3]:.1f} | {q[4]:.1f} | {lw}/{n} |")
    print()


def _suited(text, used):
    """Suited notation of doudizhu-resolver (``3s-10h-BJ-CJ``), each card once over the
    hands (``used``: suits taken per rank so far)."""
    from ddz.cards import parse_cards
    counts = parse_cards(text)
    names = "3 4 5 6 7 8 9 10 J Q K A 2".split()
    out = []
    for r in range(13):
        k = used.get(r, 0)
        out += [names[r] + s for s in "shdc"[k:k + counts[r]]]
        used[r] = k + counts[r]
    if counts[13]:
        out.append("BJ")
    if counts[14]:
        out.append("CJ")
    return "-".join(out)


def _resolver_job(first, second, q):
    from doudizhu_resolver import play
    from doudizhu_resolver.doudizhu import Card
    play.PLAY_CACHE = {}
    used = {}
    a = Card.card_ints_from_string(_suited(first, used))
    b = Card.card_ints_from_string(_suited(second, used))
    t0 = time.perf_counter()
    win = play.try_play(0, a, b, [])
    q.put((time.perf_counter() - t0, bool(win)))


def resolver(cap):
    print(f"## doudizhu-resolver side by side (its own process per puzzle, cap {cap:.0f} s)\n")
    try:
        import doudizhu_resolver  # noqa: F401
    except ImportError:
        print("doudizhu-resolver is not installed (pip install doudizhu-resolver): skipped\n")
        return
    print("| puzzle | doudizhu-resolver | its answer | ddz (1 thread) | ratio |")
    print("|---|---:|---|---:|---:|")
    for p in PUZZLES:
        pos = Position([p["first"], p["second"]])
        ours, sol = median_of(lambda: solve(pos))
        q = mp.Queue()
        proc = mp.Process(target=_resolver_job, args=(p["first"], p["second"], q))
        proc.start()
        proc.join(cap)
        if proc.is_alive():
            proc.terminate()
            proc.join()
            print(f"| {p['name']} | > {cap:.0f} s (stopped) | — | {ours * 1e3:.1f} ms | > {cap / ours:,.0f}× |")
            continue
        dt, win = q.get()
        print(f"| {p['name']} | {dt * 1e3:,.0f} ms | {'first wins' if win else 'first loses'} | "
              f"{ours * 1e3:.1f} ms | {dt / ours:,.0f}× |")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=200, help="random endgames per kicker rule")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--resolver-cap", type=float, default=60.0)
    args = ap.parse_args()
    for rules in (STANDARD, REPEAT_KICKERS):      # tables and first-use costs, untimed
        solve(Position(["KK5543", "225543"], rules=rules))
    print(f"ddz {ddz.__version__}, solver tables {ddz.solver.DEFAULT_TABLE_MB} MiB per thread\n")
    puzzles()
    random_endgames(args.random, args.seed)
    resolver(args.resolver_cap)


if __name__ == "__main__":
    main()
