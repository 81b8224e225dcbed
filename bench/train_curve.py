"""The learning curve of a ``ddz.train`` run: each saved set of weights
(``<position>_weights_<frames>.ckpt``) played in the arena (douzero mode, duplicate deals,
both seatings) against DouZero's rule baselines.

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python bench/train_curve.py training/dmc \
        [--deals 200] [--seed 4301] [--against douzero-random douzero-rlcard] [--png curve.png]

Prints a markdown table: frames, then WP [95% CI] against each opponent. ``--png`` draws
it with matplotlib when that is installed.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys

import ddz.arena
from ddz.neural import NeuralBot

POSITIONS = ("landlord", "landlord_down", "landlord_up")


def weight_sets(folder: pathlib.Path):
    """{frames: {position: file}} of the complete sets in ``folder``."""
    sets = {}
    for f in folder.iterdir():
        m = re.match(r"^(landlord|landlord_up|landlord_down)_weights_(\d+)\.ckpt$", f.name)
        if m:
            sets.setdefault(int(m.group(2)), {})[m.group(1)] = f
    return {k: v for k, v in sorted(sets.items()) if len(v) == 3}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=4301)
    ap.add_argument("--against", nargs="+", default=["douzero-random", "douzero-rlcard"])
    ap.add_argument("--png", default=None)
    args = ap.parse_args(argv)
    sets = weight_sets(pathlib.Path(args.folder))
    if not sets:
        sys.exit(f"no complete set of <position>_weights_<frames>.ckpt in {args.folder}")
    print(f"| frames | " + " | ".join(f"WP vs {o}" for o in args.against) + " |")
    print("|---|" + "---|" * len(args.against))
    curve = {o: [] for o in args.against}
    for frames, files in sets.items():
        bot = NeuralBot(files)
        cells = []
        for o in args.against:
            r = ddz.arena.run([bot, o], deals=args.deals, seed=args.seed)
            b = r.bots[0]
            curve[o].append((frames, b["wp"]))
            cells.append(f"{b['wp']:.3f} [{b['wp_ci'][0]:.3f}, {b['wp_ci'][1]:.3f}]")
        print(f"| {frames:,} | " + " | ".join(cells) + " |", flush=True)
    if args.png:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            sys.exit("--png needs matplotlib")
        for o, pts in curve.items():
            plt.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=f"vs {o}")
        plt.xlabel("frames")
        plt.ylabel("WP")
        plt.legend()
        plt.savefig(args.png, dpi=120)


if __name__ == "__main__":
    main()
