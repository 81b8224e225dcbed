"""Perft at full depth: nodes per second of the play-phase legal-move tree.

    python bench/bench_perft.py [--budget 600000] [--runs 3] [--reference]

Runs every position of ``tests/perft/*.txt`` at every pinned depth whose node count
is within ``--budget`` (the test suite stops at 10,000 nodes), checks the count, and
prints nodes per second (median of ``--runs``) with the implementation that
``ddz.core`` chose; ``--reference`` times the pure-Python reference instead
(``DDZ_NO_EXTENSIONS=1``), with a smaller default budget. A wrong count is reported
(with ``divide``) and makes the exit status 1. No timing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=int, default=None,
                        help="largest node count to run (default 600,000; 60,000 with --reference)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--reference", action="store_true", help="time the pure-Python reference")
    args = parser.parse_args(argv)
    if args.reference:
        os.environ["DDZ_NO_EXTENSIONS"] = "1"
    budget = args.budget or (60_000 if args.reference else 600_000)
    sys.path.insert(0, os.path.join(HERE, "..", "src"))
    sys.path.insert(0, os.path.join(HERE, "..", "tests", "game"))
    import glob

    import ddz
    from ddz.game.perft import divide, perft
    from test_game_perft import load_perft_file

    print(f"ddz perft ({ddz.IMPLEMENTATION}), budget {budget:,} nodes, median of {args.runs} runs")
    total_nodes = total_time = 0.0
    bad = 0
    for path in sorted(glob.glob(os.path.join(HERE, "..", "tests", "perft", "*.txt"))):
        for name, game, counts in load_perft_file(path):
            perft(game, 1)  # warm the move tables
            for depth, nodes in counts:
                if nodes > budget:
                    break
                times = []
                for _ in range(args.runs):
                    t0 = time.perf_counter()
                    got = perft(game, depth)
                    times.append(time.perf_counter() - t0)
                if got != nodes:
                    bad += 1
                    print(f"MISMATCH {name} D{depth}: {got} != {nodes}")
                    for play, c in divide(game, depth):
                        print(f"    {play}: {c}")
                t = statistics.median(times)
                if nodes >= 10_000:
                    print(f"{name:<18} D{depth:<2} {nodes:>9,} nodes  {t * 1e3:9.1f} ms  "
                          f"{nodes / t:>12,.0f} nodes/s")
                total_nodes += nodes
                total_time += t
    print(f"all: {total_nodes:,.0f} nodes in {total_time:.2f} s = {total_nodes / total_time:,.0f} nodes/s"
          f"{'' if not bad else f'; {bad} MISMATCHES'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
