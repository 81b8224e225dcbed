"""ExpertBot's decisions judged against the true deal (issue 41 item 6): a low-noise check
beside the arena.

    PYTHONPATH=src python3 bench/bench_expert_quality.py --seeds 1-99 expert-2026-12 expert "expert:threshold=0"

Plays `expert-2026-12` against itself on the douzero deals of `--seeds` and keeps every
decision with a choice, `--min-cards`..`--max-cards` cards left in all hands, whose true
position (every card face up) `ddz.solve` settles within `--node-limit` positions with
some moves winning and some losing for the side to move. Then each bot spec given decides
each kept position (seeded by its index) from the observation alone, and the share of
winning moves it picks is printed, by tens of cards left. Perfect-information truth is a
proxy (a move that loses against the true deal may be the right bet on what the seat
knows), but the same positions for every bot make small differences visible that the
arena needs thousands of deals to see.
"""

import argparse
import os
import time

import ddz
from ddz.game.position import Position
from ddz.search.registry import make as make_bot


def _seeds(text):
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def collect(args):
    rules = ddz.Rules.profile("douzero")
    out = []
    for seed in _seeds(args.seeds):
        game = ddz.Game(rules, seed=seed)
        game.step(3)
        bots = [make_bot("expert-2026-12", 3 * seed + i) for i in range(3)]
        while game.current_player is not None:
            obs, legal = game.observation(), game.legal_actions()
            if len(legal) > 1 and args.min_cards <= sum(obs.cards_left) <= args.max_cards:
                sol = ddz.solve(Position.from_game(game), all_moves=True, node_limit=args.node_limit, pv_plies=0)
                if sol.exact and 0 < len(sol.moves) < len(legal):
                    out.append((obs, legal, frozenset(sol.moves)))
            game.step(bots[game.current_player].act(obs, legal))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bots", nargs="+", help="bot specs (expert, expert:budget=100000, expert-2026-12, ...)")
    ap.add_argument("--seeds", default="1-99", help="deal seeds, LO-HI (default 1-99)")
    ap.add_argument("--min-cards", type=int, default=12)
    ap.add_argument("--max-cards", type=int, default=48)
    ap.add_argument("--node-limit", type=int, default=500_000, help="positions to solve a true deal")
    args = ap.parse_args()
    print(f"load before {os.getloadavg()}")
    t0 = time.perf_counter()
    data = collect(args)
    print(f"{len(data)} positions from seeds {args.seeds} ({time.perf_counter() - t0:.0f} s)")
    for spec in args.bots:
        t0 = time.perf_counter()
        good = {}
        for k, (obs, legal, wins) in enumerate(data):
            move = make_bot(spec, k).act(obs, legal)
            g = good.setdefault(sum(obs.cards_left) // 10 * 10, [0, 0])
            g[0] += move in wins
            g[1] += 1
        right = sum(g[0] for g in good.values())
        cells = " ".join(f"{b}-{b + 9}: {g[0]}/{g[1]}" for b, g in sorted(good.items()))
        print(f"{spec:>28}: {right}/{len(data)} = {right / max(1, len(data)):.3f}  ({cells})  "
              f"{time.perf_counter() - t0:.0f} s")
    print(f"load after {os.getloadavg()}")


if __name__ == "__main__":
    main()
