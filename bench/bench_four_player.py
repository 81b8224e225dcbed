"""The four-player two-deck game (RULES.md §7): move generation and self-play speed.

    python bench/bench_four_player.py [--runs 5] [--positions 1000] [--hands 200]

Part 1, µs per position, median of the runs: leading 33-card and 25-card two-deck hands
(seeded), and responding to a play drawn from the other cards, through the batch kernel
(``RuleTable.legal_codes_batch``, one call per group), ``ddz.legal_moves_array`` and
``ddz.legal_moves`` (one call per position) and the pure-Python reference (on the first
50 positions of each group). Part 2: whole hands per second, four ``RandomBot`` through
``ddz.search.bots.play_hand`` (deal, forced bid, open play, play, scoring), three-player hands
in the same run for comparison. No public engine plays the four-player game, so there is
no third-party row. No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import numpy as np  # noqa: E402

import ddz  # noqa: E402
from ddz.core import reference  # noqa: E402
from ddz.core.cards import deck_counts  # noqa: E402
from ddz.core.tables import table  # noqa: E402

FOUR = ddz.Rules.four_player()


def positions(n, size, seed):
    """(hands uint8[n,15], plays to beat) of seeded two-deck deals."""
    rng = np.random.default_rng(seed)
    cards = np.repeat(np.arange(15), deck_counts(2))
    hands = np.zeros((n, 15), np.uint8)
    beats = []
    for i in range(n):
        deck = rng.permutation(cards)
        hands[i] = np.bincount(deck[:size], minlength=15)
        other = np.bincount(deck[size:size + 25], minlength=15)
        moves = ddz.legal_moves(other, None, FOUR)
        beats.append(moves[int(rng.integers(len(moves)))])
    return hands, beats


def timed(fn, runs):
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def part1(runs, n):
    t = table(FOUR)
    print(f"ddz {ddz.__version__} ({ddz.IMPLEMENTATION}), four-player rules, {n} positions per group, "
          f"median of {runs} runs; µs per position")
    print(f"{'group':16s} {'batch kernel':>13s} {'array':>9s} {'legal_moves':>12s} {'reference':>10s} {'moves':>7s}")
    for size in (33, 25):
        hands, beats = positions(n, size, size)
        for lead in (True, False):
            codes = np.zeros(n, np.int64) if lead else np.array([b.code for b in beats], np.int64)
            tb = [None] * n if lead else beats
            kern = timed(lambda: t.legal_codes_batch(hands, codes), runs) / n * 1e6
            arr = timed(lambda: [ddz.legal_moves_array(h, b, FOUR) for h, b in zip(hands, tb)], runs) / n * 1e6
            lm = timed(lambda: [ddz.legal_moves(h, b, FOUR) for h, b in zip(hands, tb)], runs) / n * 1e6
            k = min(50, n)
            ref = timed(lambda: [reference.legal_moves(h, b, FOUR) for h, b in zip(hands[:k], tb[:k])],
                        max(1, runs // 2)) / k * 1e6
            mean_moves = statistics.mean(ddz.count_legal_moves(h, b, FOUR) for h, b in zip(hands, tb))
            name = f"{'lead' if lead else 'respond'}{size}"
            print(f"{name:16s} {kern:13.3f} {arr:9.3f} {lm:12.3f} {ref:10.1f} {mean_moves:7.1f}")


def part2(runs, hands):
    from ddz.search.bots import RandomBot, play_hand
    print(f"\nself-play with RandomBot, {hands} hands per run, median of {runs} runs")
    for rules, label in ((FOUR, "four players"), (ddz.Rules(), "three players")):
        n = rules.seats
        bots = [RandomBot(i) for i in range(n)]
        rates = []
        for r in range(runs):
            t0 = time.perf_counter()
            for k in range(hands):
                play_hand(ddz.Game(rules, seed=r * hands + k), bots)
            rates.append(hands / (time.perf_counter() - t0))
        print(f"{label:14s} {statistics.median(rates):10,.0f} hands/s   (runs: {', '.join(f'{x:,.0f}' for x in rates)})")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--hands", type=int, default=200)
    args = ap.parse_args(argv)
    part1(args.runs, args.positions)
    part2(args.runs, args.hands)


if __name__ == "__main__":
    main()
