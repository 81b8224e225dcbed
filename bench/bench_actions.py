"""Throughput of the action-space batch APIs (issue 4), printed as a Markdown table.

    python bench/bench_actions.py [--runs 7] [--kickers repeat] [--rlcard-rows 256]

For B = 1, 64 and 4,096 seeded positions (17-card hands; leading, and responding to a
play drawn from the other cards, cycling through the play types), it times:

* ``legal_ids_batch`` and ``legal_masks(out=...)`` on one thread and on every core;
* the single-call path (``space.legal_ids`` in a Python loop, validation included);
* RLCard 1.2.0's legal actions (``DoudizhuJudger.playable_cards_from_hand`` leading,
  ``utils.get_gt_cards`` responding) on the same positions: on the first
  ``--rlcard-rows`` of them, reported per hand, because it is slow;
* as the yardstick for masks, numpy zeroing an output of the same shape
  (``out.fill(False)`` on a warm buffer, and ``np.zeros`` + touching every page).

Each figure is the median of ``--runs`` runs. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import types

import numpy as np

import ddz
from ddz.game.actions import ActionSpace

DECK = np.array([4] * 13 + [1, 1], dtype=np.uint8)
CARDS = np.repeat(np.arange(15), DECK)


def positions(space: ActionSpace, n: int, responding: bool, seed: int = 20240601):
    rng = np.random.default_rng(seed)
    counts = space.card_counts
    types_ = np.array([int(p.type) for p in space])
    hands = np.zeros((n, 15), dtype=np.uint8)
    tbs = np.zeros(n, dtype=np.int32)
    for i in range(n):
        hand = np.bincount(rng.permutation(CARDS)[:17], minlength=15).astype(np.uint8)
        hands[i] = hand
        if responding:
            rest = DECK - hand
            idx = np.flatnonzero((counts <= rest).all(axis=1))
            for step in range(14):
                pick = idx[types_[idx] == 1 + (i + step) % 14]
                if len(pick):
                    break
            tbs[i] = rng.choice(pick)
    return hands, tbs


def median_time(fn, runs: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


class _Card:
    def __init__(self, ch):
        self.rank, self.suit = ("", "BJ" if ch == "B" else "RJ") if ch in "BR" else (ch, "S")


def rlcard_calls(space, hands, tbs):
    try:
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        from rlcard.games.doudizhu.utils import get_gt_cards
    except ImportError:
        return None
    calls = []
    for h, tb in zip(hands, tbs):
        text = ddz.format_cards(h)
        if tb == space.pass_id:
            calls.append(lambda t=text: DoudizhuJudger.playable_cards_from_hand(t))
        else:
            me = types.SimpleNamespace(current_hand=[_Card(c) for c in text])
            other = types.SimpleNamespace(played_cards=ddz.format_cards(space.card_counts[tb]))
            calls.append(lambda a=me, b=other: get_gt_cards(a, b))
    return lambda: [c() for c in calls]


def fmt_rate(hands: int, seconds: float) -> str:
    r = hands / seconds
    return f"{r / 1e6:.2f} M" if r >= 1e6 else f"{r / 1e3:.0f} k" if r >= 1e3 else f"{r:.0f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--kickers", choices=["distinct", "repeat"], default="repeat")
    ap.add_argument("--rlcard-rows", type=int, default=256)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1, 64, 4096])
    args = ap.parse_args()

    space = ActionSpace(ddz.Rules(kickers=args.kickers))
    from ddz.game import actions
    kern = actions._kernel
    cores = os.cpu_count() or 1
    print(f"ddz.ActionSpace(kickers={args.kickers!r}): {len(space)} actions; "
          f"implementation={space.implementation}; OpenMP={getattr(kern, 'OPENMP', False)}; "
          f"{cores} CPU(s); median of {args.runs} runs; rates in hands/s\n")
    head = ("| B | position | legal_ids_batch 1 thread | legal_ids_batch all cores | "
            "legal_masks 1 thread | legal_masks all cores | numpy fill(False) | "
            "np.zeros + touch | single calls | RLCard |")
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for b in args.sizes:
        for responding in (False, True):
            hands, tbs = positions(space, b, responding)
            out = np.zeros((b, len(space)), dtype=bool)
            t_ids1 = median_time(lambda: space.legal_ids_batch(hands, tbs, threads=1), args.runs)
            t_ids = median_time(lambda: space.legal_ids_batch(hands, tbs, threads=0), args.runs)
            t_m1 = median_time(lambda: space.legal_masks(hands, tbs, out=out, threads=1), args.runs)
            t_m = median_time(lambda: space.legal_masks(hands, tbs, out=out, threads=0), args.runs)
            t_fill = median_time(lambda: out.fill(False), args.runs)

            def zeros_touch():
                z = np.zeros((b, len(space)), dtype=bool)
                z[:, ::4096] = False  # touch every page, as a mask writer must
                return z
            t_zero = median_time(zeros_touch, args.runs)
            t_single = median_time(lambda: [space.legal_ids(h, int(t)) for h, t in zip(hands, tbs)],
                                   max(1, args.runs // 2))
            rows = min(b, args.rlcard_rows)
            rl = rlcard_calls(space, hands[:rows], tbs[:rows])
            t_rl = median_time(rl, max(1, args.runs // 2)) if rl else None
            cells = [
                f"{b:,}", "respond" if responding else "lead",
                f"{fmt_rate(b, t_ids1)} ({t_ids1 * 1e3:.3f} ms)",
                f"{fmt_rate(b, t_ids)} ({t_ids * 1e3:.3f} ms)",
                f"{fmt_rate(b, t_m1)} ({t_m1 * 1e3:.3f} ms)",
                f"{fmt_rate(b, t_m)} ({t_m * 1e3:.3f} ms)",
                f"{t_fill * 1e3:.3f} ms",
                f"{t_zero * 1e3:.3f} ms",
                f"{fmt_rate(b, t_single)}",
                f"{fmt_rate(rows, t_rl)}" if t_rl else "n/a",
            ]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
