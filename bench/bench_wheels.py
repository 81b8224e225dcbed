"""What the serial wheel costs (issue 44): a batch kernel and VectorGame with and without
OpenMP threads, run in a venv that has one of the wheels installed.

    <venv>/bin/python bench/bench_wheels.py [--runs 15] [--batch 4096]

Prints one Markdown row: the build (OpenMP or serial, from ``ddz.version_info()``), then
milliseconds per batch (median of ``--runs``) of ``ActionSpace.legal_ids_batch`` on
``--batch`` seeded leading 17-card hands (repeat kickers) with ``threads=1`` and
``threads=2``, and ``VectorGame(1024).play(steps)`` decisions per microsecond-scale
(µs per decision) with ``num_threads=1`` and ``2``. A serial build runs every call on
one thread whatever it is asked, so its two columns should agree; the OpenMP build's
``threads=2`` column is what the serial wheel gives up. Run it from an empty directory,
so that ``import ddz`` is the venv's (the wheel), not a checkout's.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

import ddz
from ddz import REPEAT_KICKERS, ActionSpace
from bench_actions import median_time     # this folder: a warm-up, then the median of runs


def _median_ms(fn, runs: int) -> float:
    return 1000 * median_time(fn, runs)


def main(argv: list) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--batch", type=int, default=4096)
    args = ap.parse_args(argv)
    info = ddz.version_info()
    space = ActionSpace(REPEAT_KICKERS)
    rng = np.random.default_rng(2026)
    deck = np.repeat(np.arange(15), [4] * 13 + [1, 1])
    hands = np.stack([np.bincount(rng.permutation(deck)[:17], minlength=15) for _ in range(args.batch)])
    hands = hands.astype(np.uint8)
    leads = np.zeros(args.batch, np.int32)
    ids = {k: _median_ms(lambda: space.legal_ids_batch(hands, leads, threads=k), args.runs) for k in (1, 2)}
    from ddz.envs import VectorGame
    vec = {}
    for k in (1, 2):
        game = VectorGame(1024, seed=1, num_threads=k)
        steps = 64
        ms = _median_ms(lambda: game.play(steps), max(3, args.runs // 3))
        vec[k] = 1000 * ms / (1024 * steps)                  # µs per decision
    load = "%.1f" % os.getloadavg()[0]
    print(f"| {sys.version.split()[0]} | {'OpenMP' if info.openmp else 'serial'} | numpy {np.__version__} "
          f"| {ids[1]:.2f} | {ids[2]:.2f} | {vec[1]:.3f} | {vec[2]:.3f} | {load} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
