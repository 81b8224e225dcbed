"""Endgame solver benchmarks (issues 12 and 26), side by side in one run.

Sections (``--sections``, default all but ``deals`` and ``resolver``):

* ``puzzles``: the nine pinned puzzles (tests/data/endgame_puzzles.json), both kicker
  rules, one thread and two;
* ``baseline``: the 500 two-player positions of ``--baseline`` (a C++ solver's answers
  and times, ../shared/solver/baseline.jsonl): per size, the median over positions of
  (its time / ddz's, the Python call included) and the answers that differ;
* ``threads``: positions of this bench's own seed taking 50 ms or more on one thread:
  ``threads=2`` against one, and the answers compared; then ``--long`` positions of 36
  cards, those taking 1 s to 60 s on one thread (one solve each way: the searches the
  table's growth is for);
* ``three``: 200 random three-player positions of 30 cards (a limit of 2 s of thread
  CPU time): thread CPU time and nodes;
* ``features``: the search's optional prunings, each on and off, on positions of this
  bench's own seed (nodes and time);
* ``random``: random three-player endgames of at most 24 cards, both kicker rules;
* ``deals``: whole open deals and their way there: 40 random three-player positions each
  of 30, 36, 42, 48 and 54 cards (win mode at every size, score mode at those of
  ``--score-sizes``, 30 and 36 unless told; ``--modes win`` or ``score`` for one of
  them: two runs side by side, one per core),
  each solved once with a limit of 60 s of the solving thread's CPU time (a ``cancel``
  handle; a position solved in t seconds is solved within every limit of t or more: the
  search is the same up to the stop); the share exact within 1 s, 10 s and 60 s, median
  and p90 CPU times (on a quiet machine, wall time). ``--budget`` caps the whole
  section: once the time left would not keep 10 s for every remaining position, a
  position gets less than the full limit (never less than 10 s), and the table says
  how many positions had the full limit (one solved within 60 s counts as such
  either way; one stopped earlier is unknown between its limit and 60 s);
* ``resolver``: ``doudizhu-resolver`` (pure Python, ``pip install doudizhu-resolver``)
  on the puzzles, each in a subprocess with a time cap, when it is installed;
* ``small``: the fixed cost of a call (issue 41): a 12-card ``solve`` (the baseline
  file's), a one-node position, ``solve_batch`` per position;
* ``agree``: every answer of ``ddz.solve`` (the default path) against the other paths
  that must give it, on positions of this bench's own seed: two players of 12-28 cards
  and three of 12-36, half with the landlord leading and half a farmer, both kicker
  rules, both modes (``--agree`` positions per size, rule and mode; 50 gives 2,000
  position-mode pairs): win mode against df-pn (``_solver`` bits 4-32) and against the
  opt-in static wins (64, 128), score mode against the plain score search (without bit
  256, the win-mode search inside it); each solve limited to ``--agree-limit`` s of
  thread CPU time; a row counts the pairs where both finish, where they differ (value,
  and in score mode the move reported and the line), and where one only finishes;
* ``proof``: df-pn's proof against alpha-beta's tree (nodes, CPU time) on the ``three``
  section's positions not exact within 2 s (``--proof-cap`` seconds each, a 512 MiB
  table).

Positions of this bench's own seed are generated the way ../shared/solver/README.md
describes for the baseline (two players: ``random.Random(seed)``, a shuffled deck, the
first ``cards // 2`` cards to the landlord, the next ``cards // 2`` to the farmer;
three players: the landlord ``n - 2 * (17 * n // 54)`` cards and each farmer
``17 * n // 54``, 20/17/17 at 54, the landlord to lead), with seeds other than the
baseline's. The tables are built and a first solve done before timing. Times are
medians of five solves unless said otherwise; wall time (``time.perf_counter``) and
the solving thread's CPU time (``time.thread_time``, which other processes disturb
less) where it says so.

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python3 bench/bench_solver.py [--sections ...]
"""
import argparse
import json
import multiprocessing as mp
import os
import pathlib
import random
import statistics
import time

import numpy as np

import ddz
import ddz.search.solver
from ddz import REPEAT_KICKERS, STANDARD, Position, solve

ROOT = pathlib.Path(__file__).resolve().parents[1]
PUZZLES = json.loads((ROOT / "tests" / "data" / "endgame_puzzles.json").read_text(encoding="utf-8"))["puzzles"]
CARDS = np.repeat(np.arange(15), [4] * 13 + [1, 1])
RANKS = "3456789TJQKA2"
ORDER = {c: i for i, c in enumerate(RANKS + "BR")}
# win mode's optional prunings (ddz.search._solver FEAT_*; bit 256, the win-mode search
# inside score mode, is on by default and changes nothing in win mode); the last row adds
# the opt-in static wins (64: an answer no opponent beats, then control-win; 128: a
# farmer's lead the partner goes out on)
FEATURES = {"none": 0, "control-win": 1, "relabelled keys": 2, "both (default)": 259,
            "default + static wins": 259 | 64 | 128}


class CpuLimit:
    """A ``cancel`` handle that is set once the solving thread has used ``seconds`` of CPU
    time (``solve`` polls it from that thread): a time limit that other processes on a
    shared machine do not shorten."""

    def __init__(self, seconds):
        self.end = time.thread_time() + seconds

    def is_set(self):
        return time.thread_time() >= self.end


def median_of(fn, repeat=5):
    """``(median wall seconds, median thread CPU seconds, last result)`` of ``repeat`` calls."""
    walls, cpus, r = [], [], None
    for _ in range(repeat):
        c0 = time.thread_time()
        t0 = time.perf_counter()
        r = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.thread_time() - c0)
    return statistics.median(walls), statistics.median(cpus), r


def least_per_call(fn, reps, rounds=15):
    """Wall seconds a call of ``fn``: the least over ``rounds`` rounds of ``reps`` calls
    (the round other jobs disturbed least)."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def pct(values, q):
    """The ``q``-th percentile (nearest rank; ``inf`` entries, unsolved positions, sort last)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(np.ceil(q / 100 * len(ordered))) - 1))]


def two_player(seed, cards, count):
    """Two-player positions as ../shared/solver/README.md generates them."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = list(RANKS * 4) + ["B", "R"]
        rng.shuffle(deck)
        hands = ["".join(sorted(deck[i * (cards // 2):(i + 1) * (cards // 2)], key=ORDER.get)) for i in range(2)]
        out.append(Position(hands))
    return out


def three_player(seed, cards, count):
    """Three-player positions of ``cards`` cards, dealt as a real deal is (20/17/17 at
    54), the landlord (seat 0) to lead."""
    rng = random.Random(seed)
    f = 17 * cards // 54
    sizes = (cards - 2 * f, f, f)
    out = []
    for _ in range(count):
        deck = list(RANKS * 4) + ["B", "R"]
        rng.shuffle(deck)
        hands, at = [], 0
        for k in sizes:
            hands.append("".join(sorted(deck[at:at + k], key=ORDER.get)))
            at += k
        out.append(Position(hands))
    return out


def load_line():
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def section(title):
    print(f"## {title}\n\nload average at the start: {load_line():.2f}\n")


def puzzles():
    section("Puzzles (two players, first mover = landlord, win mode)")
    print("| puzzle | answer | distinct: ms | nodes | repeat: ms | nodes | 2 threads: ms | 2 threads / 1 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    totals = {"distinct": 0.0, "repeat": 0.0, "two": 0.0}
    worst = []
    for p in PUZZLES:
        row = [p["name"]]
        for rules, name in ((STANDARD, "distinct"), (REPEAT_KICKERS, "repeat")):
            pos = Position([p["first"], p["second"]], rules=rules)
            dt, _, sol = median_of(lambda: solve(pos), 7)
            assert sol.exact and sol.win is p["first_wins"], p["name"]
            if len(row) == 1:
                row.append("first wins" if sol.win else "first loses")
                one = dt
            totals[name] += dt
            row += [f"{dt * 1e3:.2f}", f"{sol.nodes:,}"]
        pos = Position([p["first"], p["second"]])
        sol1 = solve(pos)
        dt2, _, sol2 = median_of(lambda: solve(pos, threads=2), 7)
        assert (sol2.win, sol2.moves, sol2.pv) == (sol1.win, sol1.moves, sol1.pv), p["name"]
        totals["two"] += dt2
        worst.append((dt2 - one, max(0.1 * one, 0.05e-3), p["name"]))
        row += [f"{dt2 * 1e3:.2f}", f"{dt2 / one:.2f}"]
        print("| " + " | ".join(row) + " |")
    print(f"| **all nine** | | **{totals['distinct'] * 1e3:.1f}** | | **{totals['repeat'] * 1e3:.1f}** | | "
          f"**{totals['two'] * 1e3:.1f}** | |\n")
    slower = [name for extra, allowed, name in worst if extra > allowed]
    print(f"two threads slower than one by more than max(10%, 0.05 ms): {', '.join(slower) or 'none'}\n")


def baseline(path, repeat):
    section(f"Baseline positions ({path.name}: YunyanDeng/doudizhu_endgame, one thread)")
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    print("| cards | positions | YunyanDeng median ms | ddz median ms (wall) | median ratio (wall) | "
          "ddz median ms (thread CPU) | median ratio (CPU) | answers differ |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    for cards in sorted({r["cards"] for r in rows}):
        ratios, cratios, walls, cpus, differ = [], [], [], [], []
        for r in (r for r in rows if r["cards"] == cards):
            pos = Position([r["landlord"], r["farmer"]])
            wall, cpu, sol = median_of(lambda: solve(pos), repeat)
            walls.append(wall)
            cpus.append(cpu)
            ratios.append(r["yunyan_ms"] / 1e3 / wall)
            cratios.append(r["yunyan_ms"] / 1e3 / max(cpu, 1e-7))
            if sol.win != r["yunyan_first_wins"]:
                differ.append(f"`{r['landlord']}`/`{r['farmer']}`")
        yy = statistics.median(r["yunyan_ms"] for r in rows if r["cards"] == cards)
        print(f"| {cards} | {len(walls)} | {yy:.3f} | {statistics.median(walls) * 1e3:.3f} | "
              f"**{statistics.median(ratios):.2f}** | {statistics.median(cpus) * 1e3:.3f} | "
              f"{statistics.median(cratios):.2f} | {len(differ)}{': ' + ', '.join(differ) if differ else ''} |")
    print()


def threads(seed, limit, long_count):
    section("threads=2 against one thread (positions of this bench's seed taking >= 50 ms on one)")
    print("Wall times are medians of three solves. On a shared machine the two threads do not "
          "always run at once, so the table also gives the speed-up the CPU times imply: one "
          "thread's CPU time over the larger of the two threads' CPU times in the two-thread "
          "solve (what the wall time is when both run side by side).\n")
    helper_cpu = []
    real_help = ddz.search.solver._help

    def timed_help(main):
        c0 = time.thread_time()
        try:
            return real_help(main)
        finally:
            helper_cpu.append(time.thread_time() - c0)

    def summary(label, ups, cpu_ups):
        if ups:
            print(f"\n{label}: {len(ups)} positions: median wall speed-up **{statistics.median(ups):.2f}** "
                  f"(min {min(ups):.2f}, max {max(ups):.2f}); by CPU times **{statistics.median(cpu_ups):.2f}** "
                  f"(min {min(cpu_ups):.2f}); load average at the end {load_line():.2f}\n")

    ddz.search.solver._help = timed_help
    print("| position | 1 thread: ms | 2 threads: ms | wall speed-up | CPU: 1 thread / main, helper ms | "
          "speed-up by CPU | nodes 1 / 2 | same answer |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    try:
        for label, candidates, low, high, repeat in (
                ("50 ms or more", two_player(seed, 28, 60) + three_player(seed + 1, 30, 60), 0.05, limit, 3),
                ("1 s or more (36 cards, one solve each way)", three_player(seed + 2, 36, long_count), 1.0, 60.0, 1)):
            ups, cpu_ups = [], []
            for pos in candidates:
                one = solve(pos, time_limit=high)
                if not one.exact or one.seconds < low:
                    continue
                if repeat == 1:
                    helper_cpu.clear()
                    c0 = time.thread_time()
                    t0 = time.perf_counter()
                    b = solve(pos, threads=2)
                    w2, main_cpu = time.perf_counter() - t0, time.thread_time() - c0
                    c0 = time.thread_time()
                    a = solve(pos)
                    c1 = time.thread_time() - c0
                    w1 = a.seconds
                else:
                    w1, c1, a = median_of(lambda: solve(pos), 3)
                    w2, _, b = median_of(lambda: solve(pos, threads=2), 3)
                    helper_cpu.clear()
                    c0 = time.thread_time()
                    solve(pos, threads=2)
                    main_cpu = time.thread_time() - c0
                up_cpu = c1 / max(main_cpu, sum(helper_cpu))
                same = (a.win, a.value, a.moves, a.pv) == (b.win, b.value, b.moves, b.pv)
                ups.append(w1 / w2)
                cpu_ups.append(up_cpu)
                print(f"| `{pos}` | {w1 * 1e3:.1f} | {w2 * 1e3:.1f} | {w1 / w2:.2f} | {c1 * 1e3:.0f} / "
                      f"{main_cpu * 1e3:.0f}, {sum(helper_cpu) * 1e3:.0f} | {up_cpu:.2f} | {a.nodes:,} / {b.nodes:,} | "
                      f"{'yes' if same else '**no**'} |")
            summary(label, ups, cpu_ups)
    finally:
        ddz.search.solver._help = real_help


def three(seed, count, limit):
    section(f"Three-player, 30 cards: {count} random positions (limit {limit:g} s of thread CPU time)")
    times, nodes, inexact = [], [], 0
    for pos in three_player(seed, 30, count):
        c0 = time.thread_time()
        sol = solve(pos, cancel=CpuLimit(limit))
        times.append(time.thread_time() - c0)
        nodes.append(sol.nodes)
        inexact += not sol.exact
    print("| positions | not exact | thread CPU ms: median | p90 | p99 | max | nodes: median | p99 | max |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {count} | {inexact} | {pct(times, 50) * 1e3:.1f} | {pct(times, 90) * 1e3:.1f} | "
          f"**{pct(times, 99) * 1e3:.1f}** | {max(times) * 1e3:.1f} | {pct(nodes, 50):,.0f} | "
          f"{pct(nodes, 99):,.0f} | {max(nodes):,} |\n")


def features(seed):
    section("The optional prunings, each on its own (positions of this bench's seed)")
    sets = {"two players, 24 cards (40)": two_player(seed, 24, 40),
            "two players, 28 cards (20)": two_player(seed + 2, 28, 20),
            "three players, 24 cards (40)": three_player(seed + 3, 24, 40),
            "three players, 30 cards (20)": three_player(seed + 4, 30, 20)}
    print("| positions | prunings | nodes | thread CPU s | not exact (30 s) |")
    print("|---|---|---:|---:|---:|")
    saved = ddz.search.solver._FEATURES
    try:
        for name, positions in sets.items():
            for label, bits in FEATURES.items():
                ddz.search.solver._FEATURES = bits
                n, cpu, bad = 0, 0.0, 0
                for pos in positions:
                    c0 = time.thread_time()
                    sol = solve(pos, time_limit=30)
                    cpu += time.thread_time() - c0
                    n += sol.nodes
                    bad += not sol.exact
                print(f"| {name} | {label} | {n:,} | {cpu:.2f} | {bad} |")
    finally:
        ddz.search.solver._FEATURES = saved
    print()


def random_endgames(n, seed):
    section(f"Random three-player endgames, at most 24 cards ({n} per kicker rule, landlord leads)")
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


def deals(seed, count, sizes, limit, budget, score_sizes=(30, 36), modes=("win", "score")):
    section(f"Whole deals and the way there: {count} random three-player positions per size "
            f"(limit {limit:g} s of thread CPU time, whole section capped at {budget / 3600:.1f} h of it)")
    runs = [(n, False) for n in sizes if "win" in modes] + \
        [(n, True) for n in sizes if n in score_sizes and "score" in modes]
    runs.sort(key=lambda r: (r[0], r[1]))
    total = len(runs) * count
    done = 0
    start = time.thread_time()
    wall = time.perf_counter()
    print("| cards | mode | exact <= 1 s | <= 10 s | <= 60 s | median s | p90 s | nodes median | "
          "positions with the full limit | landlord wins (exact) |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for cards, score in runs:
        times, nodes, full, lw, exact = [], [], 0, 0, 0
        for pos in three_player(seed + cards, cards, count):
            # the full limit while the time left keeps 10 s for every position after this one
            left = budget - (time.thread_time() - start)
            cap = min(limit, max(10.0, left - 10.0 * (total - done - 1)))
            full += cap >= limit
            c0 = time.thread_time()
            sol = solve(pos, score=score, cancel=CpuLimit(cap))
            dt = time.thread_time() - c0
            done += 1
            times.append(dt if sol.exact else float("inf"))
            nodes.append(sol.nodes)
            if sol.exact:
                exact += 1
                lw += bool(sol.landlord_wins)
        within = [sum(t <= x for t in times) for x in (1, 10, 60)]
        med, p90 = pct(times, 50), pct(times, 90)
        fmt = lambda x: f"{x:.2f}" if np.isfinite(x) else f"> {limit:g}"     # noqa: E731
        print(f"| {cards} | {'score' if score else 'win'} | {within[0]}/{count} | {within[1]}/{count} | "
              f"{within[2]}/{count} | {fmt(med)} | {fmt(p90)} | {int(np.median(nodes)):,} | {full}/{count} | "
              f"{lw}/{exact} |", flush=True)
    print(f"\nsection: {(time.thread_time() - start) / 60:.1f} min of CPU time, "
          f"{(time.perf_counter() - wall) / 60:.1f} min of wall time; load average at the end {load_line():.2f}\n")


def small(path):
    section("Small solves (issue 41 item 5): the fixed cost of a call, solve_batch")
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    pos12 = [Position([r["landlord"], r["farmer"]]) for r in rows if r["cards"] == 12]
    one = Position(["33", "4"])

    for p in pos12:
        solve(p)
    print("Per-call wall time, the least of 15 rounds (the rounds the other jobs disturbed least); "
          "12-card figures are the median over the baseline file's 100 12-card positions of each "
          "position solved 20 times in a row.\n")
    print("| what | µs |")
    print("|---|---:|")
    med = statistics.median(least_per_call(lambda p=p: solve(p), 20) for p in pos12)
    print(f"| `solve`, 12 cards, median | **{med * 1e6:.2f}** |")
    med0 = statistics.median(least_per_call(lambda p=p: solve(p, pv_plies=0), 20) for p in pos12)
    print(f"| `solve(pv_plies=0)`, 12 cards, median | {med0 * 1e6:.2f} |")
    srch = statistics.median(min(solve(p).search_seconds for _ in range(20)) for p in pos12)
    print(f"| its `search_seconds`, median | {srch * 1e6:.2f} |")
    print(f"| `solve`, one-node position `33/4` | **{least_per_call(lambda: solve(one), 1000) * 1e6:.2f}** |")
    big = pos12 * 10
    for pv in (None, 0):
        t = least_per_call(lambda: ddz.solve_batch(big, pv_plies=pv), 1, 7) / len(big)
        print(f"| `solve_batch` of 1,000 12-card positions (each distinct from the last), pv_plies={pv}, per position | "
              f"**{t * 1e6:.2f}** |")
    t = least_per_call(lambda: [solve(p) for p in big], 1, 7) / len(big)
    print(f"| the same 1,000 by `solve` one by one, per position | {t * 1e6:.2f} |")
    print(f"\nload average at the end {load_line():.2f}\n")


def proof(seed, count, limit, cap, table_mb):
    section(f"df-pn against alpha-beta: the three-player 30-card positions not exact within {limit:g} s "
            f"(win mode, table {table_mb} MiB, at most {cap:g} s each)")
    from ddz.search import _solver
    s = _solver.Searcher(table_mb)
    hard = []
    for i, pos in enumerate(three_player(seed, 30, count)):
        if not solve(pos, cancel=CpuLimit(limit)).exact:
            hard.append((i, pos))
    print("| # | position | alpha-beta: value | nodes | CPU s | df-pn: value | nodes | CPU s | nodes ab / df-pn |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for i, pos in hard:
        row = [str(i), f"`{pos}`"]
        found = []
        for feats in (3, 63):
            s.reset(pos.rules, 3, 0, False, 0, feats)
            c0 = time.thread_time()
            v, ex = s.value(pos.hands, 0, 0, -1, 0, False, -1, 1, None, cap)
            dt = time.thread_time() - c0
            found.append(s.nodes)
            row += [f"{v:+d}" if ex else "—", f"{s.nodes:,}", f"{dt:.2f}"]
        row.append(f"{found[0] / found[1]:.2f}")
        print("| " + " | ".join(row) + " |", flush=True)
    print(f"\nload average at the end {load_line():.2f}\n")


# the paths that must answer as the default does: (label, features bits, score mode)
AGREE_PATHS = (("df-pn", 259 | 4 | 8 | 16 | 32, False), ("static wins", 259 | 64 | 128, False),
               ("plain score search", 3, True))


def agree(seed, count, limit):
    section(f"Every answer against the other paths: {count} positions per size, kicker rule and mode "
            f"(limit {limit:g} s of thread CPU time a solve)")
    sets = [(2, n) for n in (12, 16, 20, 24, 28)] + [(3, n) for n in (12, 18, 24, 30, 36)]
    print("| players | cards | kicker rule | mode | other path | both exact | differ | default only | other only |")
    print("|---:|---:|---|---|---|---:|---:|---:|---:|")
    saved = ddz.search.solver._FEATURES
    totals = {"pairs": 0, "both": 0, "differ": 0}
    start, wall = time.thread_time(), time.perf_counter()
    try:
        for seats, cards in sets:
            for rules, rname in ((STANDARD, "distinct"), (REPEAT_KICKERS, "repeat")):
                make = two_player if seats == 2 else three_player
                base = make(seed + 7 * cards + seats + 500 * (rules is REPEAT_KICKERS), cards, count)
                positions = [Position(p.hands, rules=rules, to_move=k % 2) for k, p in enumerate(base)]
                for score in (False, True):
                    totals["pairs"] += count
                    rows = {label: [0, 0, 0, 0] for label, _, s in AGREE_PATHS if s == score}
                    for pos in positions:
                        ddz.search.solver._FEATURES = saved
                        ref = solve(pos, score=score, cancel=CpuLimit(limit))
                        for label, bits, _ in (p for p in AGREE_PATHS if p[2] == score):
                            ddz.search.solver._FEATURES = bits
                            alt = solve(pos, score=score, cancel=CpuLimit(limit))
                            row = rows[label]
                            if ref.exact and alt.exact:
                                row[0] += 1
                                same = ref.landlord_wins == alt.landlord_wins and ref.value == alt.value and (
                                    not score or (ref.moves == alt.moves and ref.pv == alt.pv))
                                if not same:
                                    row[1] += 1
                                    print(f"DIFFER {label}: `{pos}` score={score}: {ref.value} {ref.moves} "
                                          f"against {alt.value} {alt.moves}", flush=True)
                            elif ref.exact:
                                row[2] += 1
                            elif alt.exact:
                                row[3] += 1
                    for label, (both, differ, d_only, a_only) in rows.items():
                        totals["both"] += both if label != "static wins" else 0
                        totals["differ"] += differ
                        print(f"| {seats} | {cards} | {rname} | {'score' if score else 'win'} | {label} | "
                              f"{both}/{count} | {differ} | {d_only} | {a_only} |", flush=True)
    finally:
        ddz.search.solver._FEATURES = saved
    print(f"\n{totals['pairs']:,} position-mode pairs; both exact (df-pn or the plain score search) on "
          f"{totals['both']:,}; differing answers: {totals['differ']}. {(time.thread_time() - start) / 60:.1f} min "
          f"of CPU time, {(time.perf_counter() - wall) / 60:.1f} min of wall time; load average at the end "
          f"{load_line():.2f}\n")


def _suited(text, used):
    """Suited notation of doudizhu-resolver (``3s-10h-BJ-CJ``), each card once over the
    hands (``used``: suits taken per rank so far)."""
    from ddz.core.cards import parse_cards
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
    section(f"doudizhu-resolver side by side (its own process per puzzle, cap {cap:.0f} s)")
    try:
        import doudizhu_resolver  # noqa: F401
    except ImportError:
        print("doudizhu-resolver is not installed (pip install doudizhu-resolver): skipped\n")
        return
    print("| puzzle | doudizhu-resolver | its answer | ddz (1 thread) | ratio |")
    print("|---|---:|---|---:|---:|")
    for p in PUZZLES:
        pos = Position([p["first"], p["second"]])
        ours, _, sol = median_of(lambda: solve(pos))
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


SECTIONS = ("puzzles", "baseline", "threads", "three", "features", "random", "deals", "resolver", "small",
            "proof", "agree")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sections", nargs="+", choices=SECTIONS,
                    default=["puzzles", "baseline", "threads", "three", "features", "random"])
    found = [d / "shared" / "solver" / "baseline.jsonl" for d in ROOT.parents
             if (d / "shared" / "solver" / "baseline.jsonl").exists()]
    ap.add_argument("--baseline", type=pathlib.Path,
                    default=found[0] if found else ROOT.parent / "shared" / "solver" / "baseline.jsonl",
                    help="the baseline positions (JSON lines; default: shared/solver/baseline.jsonl in a "
                         "folder above this checkout)")
    ap.add_argument("--repeat", type=int, default=5, help="solves per baseline position (median)")
    ap.add_argument("--seed", type=int, default=2612, help="seed of this bench's own positions")
    ap.add_argument("--random", type=int, default=200, help="random endgames per kicker rule")
    ap.add_argument("--three", type=int, default=200, help="three-player 30-card positions")
    ap.add_argument("--long", type=int, default=20, help="36-card positions tried in the threads section")
    ap.add_argument("--deal-count", type=int, default=40)
    ap.add_argument("--deal-sizes", type=int, nargs="+", default=[30, 36, 42, 48, 54])
    ap.add_argument("--deal-limit", type=float, default=60.0)
    ap.add_argument("--score-sizes", type=int, nargs="*", default=[30, 36],
                    help="the deals section's sizes solved in score mode too")
    ap.add_argument("--modes", nargs="+", choices=("win", "score"), default=["win", "score"],
                    help="the deals section's modes")
    ap.add_argument("--budget", type=float, default=7200.0, help="seconds for the deals section")
    ap.add_argument("--resolver-cap", type=float, default=60.0)
    ap.add_argument("--agree", type=int, default=50, help="positions per size, kicker rule and mode (agree)")
    ap.add_argument("--agree-limit", type=float, default=2.0, help="thread CPU seconds a solve (agree)")
    ap.add_argument("--proof-cap", type=float, default=60.0, help="seconds per search in the proof section")
    args = ap.parse_args()
    for rules in (STANDARD, REPEAT_KICKERS):      # first-use costs, untimed
        solve(Position(["KK5543", "225543"], rules=rules))
    print(f"ddz {ddz.__version__}, solver tables {ddz.search.solver.DEFAULT_TABLE_MB} MiB, "
          f"{os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
    for name in args.sections:
        if name == "puzzles":
            puzzles()
        elif name == "baseline":
            baseline(args.baseline, args.repeat)
        elif name == "threads":
            threads(args.seed, 30.0, args.long)
        elif name == "three":
            three(args.seed + 30, args.three, 2.0)
        elif name == "features":
            features(args.seed + 100)
        elif name == "random":
            random_endgames(args.random, args.seed)
        elif name == "deals":
            deals(args.seed + 1000, args.deal_count, args.deal_sizes, args.deal_limit, args.budget,
                  args.score_sizes, args.modes)
        elif name == "resolver":
            resolver(args.resolver_cap)
        elif name == "small":
            small(args.baseline)
        elif name == "proof":
            proof(args.seed + 30, args.three, 2.0, args.proof_cap, 512)
        elif name == "agree":
            agree(args.seed + 4100, args.agree, args.agree_limit)


if __name__ == "__main__":
    main()
