"""Side-by-side legal-move benchmark on the fixed positions of ``positions.py``.

Run from the repository root (after building or installing ddz)::

    python bench/compare.py [--runs 7]

Prints, per engine and position group, microseconds per position (median of the runs;
each run times every position of the group once, or many times for the fast engines)
and each engine's time divided by ddz's. Engines missing here are reported and skipped.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import ddz  # noqa: E402
from ddz.tables import table as rule_table  # noqa: E402
import engines  # noqa: E402
import positions  # noqa: E402


def time_calls(fns, runs, min_time=0.05):
    """Median over ``runs`` of the mean µs per call of ``fns`` (each run loops over all
    of them, repeated until ``min_time`` seconds have passed)."""
    out = []
    for _ in range(runs):
        reps = 0
        t0 = time.perf_counter()
        while True:
            for f in fns:
                f()
            reps += 1
            dt = time.perf_counter() - t0
            if dt >= min_time:
                break
        out.append(dt / (reps * len(fns)) * 1e6)
    return statistics.median(out)


def batch_fn(ps):
    hands = np.array([p.hand for p in ps], dtype=np.uint8)
    codes = np.array([p.to_beat.code if p.to_beat else 0 for p in ps], dtype=np.int64)
    batch = rule_table(positions.RULES).legal_codes_batch  # rows checked in C, then the kernel
    return lambda: batch(hands, codes)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    groups = positions.GROUPS
    names = ["ddz batch kernel"] + list(engines.ENGINES)
    table = {}
    covered = {}
    for name in names:
        for g in groups:
            ps = positions.by_group(g)
            if name == "ddz batch kernel":
                table[name, g] = time_calls([batch_fn(ps)], args.runs) / len(ps)
                continue
            try:
                fns = [engines.prepare(name, p) for p in ps]
            except ImportError as exc:
                print(f"# {name}: not installed ({exc})")
                break
            fns = [f for f in fns if f is not None]
            covered[name, g] = len(fns)
            if not fns:
                continue
            slow = name in ("reference",)
            table[name, g] = time_calls(fns, 1 if slow else args.runs, 0.0 if slow else 0.05) \
                if slow else time_calls(fns, args.runs)
    print(f"ddz {ddz.__version__} ({ddz.IMPLEMENTATION}), rules {positions.RULES!r}, "
          f"{len(positions.POSITIONS)} positions, median of {args.runs} runs; µs per position")
    head = f"{'engine':18s}" + "".join(f"{g:>16s}" for g in groups)
    print(head)
    print("-" * len(head))
    for name in names:
        row = f"{name:18s}"
        for g in groups:
            v = table.get((name, g))
            n = covered.get((name, g), len(positions.by_group(g)))
            cell = "—" if v is None else (f"{v:.3f}" if v < 1 else f"{v:.1f}")
            if v is not None and n != len(positions.by_group(g)):
                cell += f" (n={n})"
            row += f"{cell:>16s}"
        print(row)
    print()
    print("ratios: other engine's time / ddz's time (higher = ddz faster)")
    for mine in ("ddz batch kernel", "ddz array", "ddz legal_moves"):
        print(f"  {mine}:")
        for other in ("reference", "DouZero", "RLCard", "OpenSpiel"):
            cells = []
            for g in groups:
                a, b = table.get((mine, g)), table.get((other, g))
                cells.append("—" if a is None or b is None else f"{b / a:.1f}x")
            print(f"    vs {other:10s}" + "".join(f"{c:>16s}" for c in cells))


if __name__ == "__main__":
    main()
