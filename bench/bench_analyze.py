"""A deal's value table and where hands were lost (issue 41 item 4): ``ddz.analyze_deal`` on
seeded deals and ``ddz.lost_at`` on self-play records, with the load written down.

Sections:

* ``deals``: ``analyze_deal(seed, time_limit=T)`` (win mode, one thread) for seeds
  ``0 .. N-1``: the share of (deal, seat) rows exact within ``T`` seconds of wall time,
  the median and p90 time of a row, and the landlord win rate among the exact rows;
* ``dfpn`` (not run by default): the same rows by alpha-beta and by the opt-in df-pn
  path, each with the time limit: equal where both finish?
* ``records``: ``N`` hands of three greedy bots (``ddz.distributed.selfplay(N, seed=41)``),
  each through ``lost_at`` with its default budget (0.5 s a position, 5 s a hand): the
  time per hand, the share of positions known, how many hands get a first change claimed
  or bounded, and every proven change checked by solving the positions on both sides
  afresh (up to 60 s each).

Usage: ``PYTHONPATH=src nice python bench/bench_analyze.py [--deals 10] [--first-seed 0]
[--time-limit 5] [--records 20]`` (two runs of ``--sections deals`` side by side, one per
core, split the seeds by ``--first-seed``). Times are wall times: on a busy machine, say the load beside them
(printed before and after).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import ddz
from ddz.distributed import selfplay


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def deals(n: int, limit: float, first: int = 0) -> None:
    rows = []
    for seed in range(first, first + n):
        table = ddz.analyze_deal(seed, time_limit=limit).rows
        for r in table:         # each row as it comes: a long run's log keeps what it has
            print(f"  seed {seed} seat {r.seat}: {'exact' if r.exact else 'unknown'} in {r.seconds:.2f} s"
                  + (f", the landlord {'wins' if r.landlord_wins else 'loses'}" if r.exact else ""), flush=True)
        rows += table
    exact = [r for r in rows if r.exact]
    times = sorted(r.seconds for r in rows)
    wins = sum(r.landlord_wins for r in exact)
    print(f"deals: {n} seeds ({first}..{first + n - 1}) x 3 seats, time limit {limit:g} s: {len(exact)}/{len(rows)} rows exact "
          f"({len(exact) / len(rows):.0%}); row time median {statistics.median(times):.2f} s, "
          f"p90 {times[int(0.9 * (len(times) - 1))]:.2f} s; exact rows: median "
          f"{statistics.median(r.seconds for r in exact) if exact else float('nan'):.2f} s, landlord wins {wins}/{len(exact)}")


def dfpn(n: int, limit: float) -> None:
    """The rows of ``deals`` by the default alpha-beta path and by the opt-in df-pn path
    (``ddz.search.solver._FEATURES`` bit 4, as bench_solver.py toggles it): equal where
    both finish?"""
    import ddz.search.solver as solver_module     # its feature bits: a measurement switch only
    from ddz.search.analyze import _seat_position  # the value table's own position of a seat
    saved = solver_module._FEATURES
    both = equal = ab_only = df_only = 0
    try:
        for seed in range(n):
            deal = ddz.Game(seed=seed).deal
            for seat in range(3):
                pos = _seat_position(deal, seat, ddz.STANDARD, 1)
                solver_module._FEATURES = 3
                a = ddz.solve(pos, time_limit=limit, pv_plies=0)
                solver_module._FEATURES = 3 | 4 | 8
                d = ddz.solve(pos, time_limit=limit, pv_plies=0)
                solver_module._FEATURES = saved
                if a.exact and d.exact:
                    both += 1
                    equal += a.landlord_wins == d.landlord_wins and list(map(str, a.moves)) == list(map(str, d.moves))
                ab_only += a.exact and not d.exact
                df_only += d.exact and not a.exact
    finally:
        solver_module._FEATURES = saved
    print(f"dfpn: {n} seeds x 3 seats, {limit:g} s each way: both exact {both}, equal (result and reported "
          f"move) {equal}; alpha-beta only {ab_only}, df-pn only {df_only}")


def records(n: int) -> None:
    recs = [r for r in selfplay(n, seed=41, bots=("greedy",) * 3) if r["result"] and not r["result"].get("void")]
    times, known, firsts, spans, checked, agree = [], [], 0, 0, 0, 0
    for rec in recs:
        t = time.perf_counter()
        a = ddz.lost_at(rec)
        times.append(time.perf_counter() - t)
        known.append(1 - len(a.unknown) / len(a.moves))
        firsts += a.first_change is not None
        spans += a.first_span() is not None
        g = ddz.Game.from_record(rec)
        cut = len(rec["actions"]) - len(g.plays)
        pos = [ddz.Position.from_game(ddz.Game.from_record(dict(rec, actions=rec["actions"][:cut], result=None)))]
        for _, play in g.plays:
            pos.append(pos[-1].after(play))
        for k in a.changes:
            before, after = ddz.solve(pos[k - 1], time_limit=60), ddz.solve(pos[k], time_limit=60)
            checked += 1
            agree += (before.exact and after.exact and before.landlord_wins == a.moves[k - 1].landlord_wins
                      and after.landlord_wins == a.moves[k].landlord_wins)
    print(f"records: {len(recs)} greedy hands, lost_at defaults: time per hand median "
          f"{statistics.median(times):.2f} s, max {max(times):.2f} s; positions known per hand median "
          f"{statistics.median(known):.0%}, min {min(known):.0%}; first change claimed in {firsts}, "
          f"bounded (first_span) in {spans}; proven changes confirmed on both sides {agree}/{checked}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--first-seed", type=int, default=0, help="the deals section's first seed")
    p.add_argument("--time-limit", type=float, default=5.0)
    p.add_argument("--records", type=int, default=20)
    p.add_argument("--sections", default="deals,records")
    args = p.parse_args()
    print(f"ddz {ddz.__version__}; before: {load()}", flush=True)
    if "deals" in args.sections:
        deals(args.deals, args.time_limit, args.first_seed)
        print(f"  ({load()})", flush=True)
    if "dfpn" in args.sections:
        dfpn(args.deals, args.time_limit)
        print(f"  ({load()})", flush=True)
    if "records" in args.sections:
        records(args.records)
        print(f"  ({load()})", flush=True)


if __name__ == "__main__":
    main()
