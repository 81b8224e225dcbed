"""Random-bot self-play: complete hands per second, ddz against RLCard's Dou Dizhu.

    python bench/bench_selfplay.py [--runs 5] [--seconds 3]

Both loops play whole hands with uniformly random legal actions:

* ddz: ``ddz.Game(rules, seed=i)`` then ``ddz.search.bots.play_hand`` with three
  ``ddz.RandomBot`` (deal, bidding 1-3 with redeals, play, scoring; an observation is
  built for every decision), with ``kickers="repeat"`` (RLCard's rule) and the default
  ``"distinct"``;
* RLCard 1.2.0: ``env = rlcard.make("doudizhu")``, then per hand ``env.reset()`` and
  ``env.step(random legal action)`` until ``env.is_over()`` (RLCard deals and picks
  the landlord itself; it has no bidding).

Each run plays for about ``--seconds`` seconds; the table shows the median of ``--runs``
runs and the ratio of the medians. No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))


def ddz_run(rules, seconds: float, start_seed: int) -> float:
    import ddz
    from ddz.search.bots import RandomBot, play_hand
    bots = [RandomBot(start_seed), RandomBot(start_seed + 1), RandomBot(start_seed + 2)]
    n = 0
    t0 = time.perf_counter()
    while True:
        play_hand(ddz.Game(rules, seed=start_seed + n), bots)
        n += 1
        if n % 50 == 0 and time.perf_counter() - t0 >= seconds:
            break
    return n / (time.perf_counter() - t0)


def rlcard_run(seconds: float, start_seed: int) -> float:
    import rlcard
    env = rlcard.make("doudizhu", config={"seed": start_seed})
    rng = random.Random(start_seed)
    n = 0
    t0 = time.perf_counter()
    while True:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            state, _ = env.step(legal[rng.randrange(len(legal))])
        n += 1
        if n % 10 == 0 and time.perf_counter() - t0 >= seconds:
            break
    return n / (time.perf_counter() - t0)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one run")
    args = parser.parse_args(argv)
    import ddz
    print(f"ddz {ddz.__version__} ({ddz.IMPLEMENTATION}), Python {sys.version.split()[0]}; "
          f"median of {args.runs} runs of ~{args.seconds:g} s each")
    ddz_run(ddz.REPEAT_KICKERS, 0.3, 10**6)      # warm-up: move tables
    ddz_run(ddz.STANDARD, 0.3, 10**6)
    rows = {}
    for name, fn in [("ddz, kickers=repeat", lambda r: ddz_run(ddz.REPEAT_KICKERS, args.seconds, r * 100_000)),
                     ("ddz, kickers=distinct", lambda r: ddz_run(ddz.STANDARD, args.seconds, r * 100_000)),
                     ("RLCard 1.2.0", lambda r: rlcard_run(args.seconds, r))]:
        try:
            rates = [fn(r) for r in range(args.runs)]
        except ImportError as exc:
            print(f"{name}: skipped ({exc})")
            continue
        rows[name] = statistics.median(rates)
        print(f"{name:<24} {rows[name]:>10,.0f} hands/s   (runs: {', '.join(f'{x:,.0f}' for x in rates)})")
    if "RLCard 1.2.0" in rows:
        for name, rate in rows.items():
            if name.startswith("ddz"):
                print(f"{name} / RLCard: {rate / rows['RLCard 1.2.0']:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
