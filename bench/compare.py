"""Side-by-side legal-move benchmark on the fixed positions of ``positions.py``.

Run from the repository root (after building or installing ddz)::

    python bench/compare.py [--runs 7]
    python bench/compare.py --profiles [--runs 7]

Prints, per engine and position group, microseconds per position (median of the runs;
each run times every position of the group once, or many times for the fast engines)
and each engine's time divided by ddz's. Engines missing here are reported and skipped.
Times are this thread's CPU time (``--clock cpu``, the default, which other jobs on a
shared machine disturb less) or wall clock (``--clock wall``).

``--profiles`` times ddz alone under the default rules and each engine profile
(``Rules.profile``, RULES.md §2.5) on the same positions (those whose play to beat is a
play under every one of them, read under each), through ``ddz.legal_moves`` and the
batch kernel, and prints each profile's time divided by the default rules'.
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
from ddz.core.tables import table as rule_table  # noqa: E402
import engines  # noqa: E402
import positions  # noqa: E402


#: the clock of every timing: ``time.thread_time`` (CPU time of this thread, which other
#: jobs on a shared machine disturb less; ``--clock cpu``, the default) or
#: ``time.perf_counter`` (wall clock, ``--clock wall``)
CLOCK = time.thread_time


def time_calls(fns, runs, min_time=0.05):
    """Median over ``runs`` of the mean µs per call of ``fns`` (each run loops over all
    of them, repeated until ``min_time`` seconds of :data:`CLOCK` have passed)."""
    out = []
    for _ in range(runs):
        reps = 0
        t0 = CLOCK()
        while True:
            for f in fns:
                f()
            reps += 1
            dt = CLOCK() - t0
            if dt >= min_time:
                break
        out.append(dt / (reps * len(fns)) * 1e6)
    return statistics.median(out)


def batch_fn(ps):
    hands = np.array([p.hand for p in ps], dtype=np.uint8)
    codes = np.array([p.to_beat.code if p.to_beat else 0 for p in ps], dtype=np.int64)
    batch = rule_table(positions.RULES).legal_codes_batch  # rows checked in C, then the kernel
    return lambda: batch(hands, codes)


PROFILE_RULES = {"default": ddz.Rules()} | {name: ddz.Rules.profile(name) for name in ddz.Rules.profiles()}


def profile_positions():
    """Per group, the positions whose play to beat is a play under every rule set of
    ``PROFILE_RULES``, and per rule set its (hand, play to beat) of each: the play to beat
    is the first reading of the same cards under that rule set."""
    out = {}
    for g in positions.GROUPS:
        rows = {name: [] for name in PROFILE_RULES}
        for p in positions.by_group(g):
            beats = {}
            for name, rules in PROFILE_RULES.items():
                if p.to_beat is None:
                    beats[name] = None
                    continue
                found = ddz.readings(p.to_beat.counts, rules)
                if not found:
                    break
                beats[name] = found[0]
            else:
                for name in PROFILE_RULES:
                    rows[name].append((p.hand, beats[name]))
        out[g] = rows
    return out


def compare_profiles(runs):
    """``--profiles``: each profile's time per position against the default rules'. Every
    timing is warmed up first (tables built), and the runs interleave the rule sets, so
    that a change of machine load touches all of them alike; medians of the runs."""
    groups = positions.GROUPS
    chosen = profile_positions()
    work = {}
    moves = {}
    for name, rules in PROFILE_RULES.items():
        for g in groups:
            ps = chosen[g][name]
            fns = [(lambda h=h, b=b: ddz.legal_moves(h, b, rules)) for h, b in ps]
            hands = np.array([h for h, _ in ps], dtype=np.uint8)
            codes = np.array([b.code if b else 0 for _, b in ps], dtype=np.int64)
            batch = rule_table(rules).legal_codes_batch
            moves[name, g] = sum(len(f()) for f in fns) / len(ps)          # warm-up, and the work done
            batch(hands, codes)
            work["legal_moves", name, g] = (fns, 1)
            work["batch kernel", name, g] = ([lambda batch=batch, hands=hands, codes=codes: batch(hands, codes)],
                                             len(ps))
    samples = {key: [] for key in work}
    for _ in range(runs):
        for key, (fns, n) in work.items():
            samples[key].append(time_calls(fns, 1) / n)
    table = {key: statistics.median(v) for key, v in samples.items()}
    print(f"ddz {ddz.__version__} ({ddz.IMPLEMENTATION}), median of {runs} interleaved runs; µs per position "
          f"({'cpu' if CLOCK is time.thread_time else 'wall'} time) "
          f"and ratio to the default rules (positions per group: "
          f"{', '.join(f'{g} {len(chosen[g][next(iter(PROFILE_RULES))])}' for g in groups)})")
    for how in ("legal_moves", "batch kernel"):
        head = f"{how:14s}{'rules':11s}" + "".join(f"{g:>14s}" for g in groups) + f"{'worst':>9s}"
        print(head)
        print("-" * len(head))
        for name in PROFILE_RULES:
            row = f"{'':14s}{name:11s}"
            worst = 0.0
            for g in groups:
                v = table[how, name, g]
                ratio = v / table[how, "default", g]
                worst = max(worst, ratio)
                row += f"{v:8.2f} {ratio:4.2f}x"
            print(row + f"{worst:8.2f}x")
        print()
    print("legal moves per position (the work each rule set asks for)")
    for name in PROFILE_RULES:
        print(f"{'':14s}{name:11s}" + "".join(f"{moves[name, g]:14.1f}" for g in groups))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--profiles", action="store_true",
                    help="time each engine profile against the default rules (ddz only)")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                    help="cpu: this thread's CPU time (default); wall: perf_counter")
    args = ap.parse_args(argv)
    global CLOCK
    CLOCK = time.thread_time if args.clock == "cpu" else time.perf_counter
    if args.profiles:
        return compare_profiles(args.runs)
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
          f"{len(positions.POSITIONS)} positions, median of {args.runs} runs; µs per position ({args.clock} time)")
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
