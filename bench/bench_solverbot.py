"""SolverBot's win rate against GreedyBot and RandomBot (issue 12).

For each hand (seeded deals), SolverBot sits at one seat (rotating over the hands) and
the opponent bot at the other two; the same deals are then replayed with the opponent
bot at every seat, as the baseline. A seat "wins" when its side wins (RULES.md §5).

    PYTHONPATH=src python3 bench/bench_solverbot.py --hands 1000
"""
import argparse
import time

import ddz
from ddz.search.bots import GreedyBot, RandomBot, SolverBot, play_hand


def run(opponent, hands, seed, solver_kw):
    won = base = 0
    t0 = time.perf_counter()
    for i in range(hands):
        seat = i % 3
        for use_solver in (True, False):
            bots = [opponent() for _ in range(3)]
            if use_solver:
                bots[seat] = SolverBot(seed=seed + i, **solver_kw)
            g = play_hand(ddz.Game(seed=seed + i), bots)
            if seat in g.result.winners:
                if use_solver:
                    won += 1
                else:
                    base += 1
    return won, base, time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threshold", type=int, default=20)
    ap.add_argument("--samples", type=int, default=12)
    args = ap.parse_args()
    kw = {"threshold": args.threshold, "samples": args.samples}
    for name, opp in (("GreedyBot", GreedyBot), ("RandomBot", lambda: RandomBot(7))):
        won, base, secs = run(opp, args.hands, args.seed, kw)
        print(f"vs {name}: SolverBot's seat won {won}/{args.hands} = {won / args.hands:.1%}; "
              f"{name} in the same seat won {base}/{args.hands} = {base / args.hands:.1%} "
              f"({secs:.0f} s, threshold={args.threshold}, samples={args.samples})")


if __name__ == "__main__":
    main()
