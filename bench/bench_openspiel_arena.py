"""OpenSpiel's searchers in the arena (issue 45): `openspiel-ismcts` and `openspiel-mcts`
at 0.02 s a decision over 1,000 deals against `expert-2026-12` and `douzero-rlcard`, and
at 0.2 s over 200 deals against `expert-2026-12`; douzero mode, both seatings (the
arena's duplicate deals), 95% intervals.

Each run is `ddz arena ... --save FILE` (resumed with `--resume FILE` when the file is
there, so an interrupted campaign goes on where it stopped); before each the time it
should take is printed: hands x searched decisions a hand x the budget / workers. A long
job: run it under the long-job lock (docs/DESIGN.md, DEVELOPERS.md)::

    flock /work/notes/longjob.lock env PYTHONPATH=src python3 bench/bench_openspiel_arena.py \
        --out bench/results/openspiel --workers 2

then `ddz arena show FILE` prints any of them again; `--only N` runs one matchup.
"""

import argparse
import os
import subprocess
import sys
import time

#: (bot, opponent, deals); the seed is not one the bots were tuned on (they were not)
MATCHUPS = [
    ("openspiel-ismcts:seconds=0.02", "expert-2026-12", 1000),
    ("openspiel-mcts:seconds=0.02", "expert-2026-12", 1000),
    ("openspiel-ismcts:seconds=0.02", "douzero-rlcard", 1000),
    ("openspiel-mcts:seconds=0.02", "douzero-rlcard", 1000),
    ("openspiel-ismcts:seconds=0.2", "expert-2026-12", 200),
    ("openspiel-mcts:seconds=0.2", "expert-2026-12", 200),
]
#: searched decisions of the searcher in a hand of douzero mode, averaged over both
#: seatings (measured: 12 hands of seed 777 against expert-2026-12; forced moves are not
#: searched)
DECISIONS_A_HAND = 12


def estimate(bot: str, deals: int, workers: int) -> float:
    """Seconds the run should take: 2 hands a deal (both seatings), each with
    DECISIONS_A_HAND searches of the bot's budget, shared by the workers."""
    seconds = float(bot.split("seconds=")[1])
    return 2 * deals * DECISIONS_A_HAND * seconds / workers


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="bench/results/openspiel", help="folder of the result files")
    ap.add_argument("--seed", type=int, default=20261208)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", type=int, help="run matchup N (0-based) only")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    todo = list(enumerate(MATCHUPS)) if args.only is None else [(args.only, MATCHUPS[args.only])]
    total = sum(estimate(b, d, args.workers) for _, (b, _, d) in todo)
    print(f"{len(todo)} runs, about {total / 60:.0f} min in all; load {os.getloadavg()}", flush=True)
    for i, (bot, opponent, deals) in todo:
        name = f"{i}-{bot.replace(':', '_').replace('=', '')}-vs-{opponent}.json"
        path = os.path.join(args.out, name)
        cmd = [sys.executable, "-m", "ddz", "arena", "--workers", str(args.workers)]
        if os.path.exists(path):     # the bots, deals and seed come from the file
            cmd += ["--resume", path]
        else:
            cmd += [bot, opponent, "--deals", str(deals), "--seed", str(args.seed), "--save", path]
        print(f"\n== {bot} vs {opponent}, {deals} deals: about {estimate(bot, deals, args.workers) / 60:.1f} min "
              f"(load {os.getloadavg()[0]:.1f})\n   {' '.join(cmd[1:])}", flush=True)
        start = time.time()
        subprocess.run(cmd, check=True)
        print(f"   took {(time.time() - start) / 60:.1f} min", flush=True)


if __name__ == "__main__":
    main()
