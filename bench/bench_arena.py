"""The arena's speed (issue 27): workers, the arena against `ddz selfplay`, and the bot
protocol's overhead per decision against a bare echo over the same pipe.

    PYTHONPATH=src python3 bench/bench_arena.py workers --deals 20000
    PYTHONPATH=src python3 bench/bench_arena.py selfplay --repeats 5
    PYTHONPATH=src python3 bench/bench_arena.py protocol --hands 40
    PYTHONPATH=src python3 bench/bench_arena.py decisions --deals 300

`workers` runs `ddz.arena.run(["greedy", "random"], deals=N, mode="douzero")` with 1 and
2 local worker processes (workers warmed up first), checks the numbers are identical,
and prints hands per second of each (wall time) and the ratio. `selfplay` alternates the
arena (greedy vs random, douzero mode, one process) with `ddz selfplay`'s loop (greedy,
random, random; the same hands as `ddz selfplay --games N`), `--repeats` times each, and
prints the medians of hands per second by wall time and by process CPU time. `protocol`
replays the decisions of `--hands` hands (greedy vs greedy, douzero mode) through a
protocol bot that answers the first legal action (`ddz.arena.serve`: the arena builds and
sends the request, the bot decodes it, rebuilds the Observation and the legal Plays,
answers, the arena checks the answer) and through a bare echo program over the same
kind of pipe, sent the same request lines (built and encoded the same way) that answers
each with a fixed short line, and prints the median microseconds per decision of each, by number of legal
actions. `decisions` times every decision of ExpertBot against `--against` (default the frozen
expert-2026-12; douzero mode) and prints the distribution: split-driven, probe not
exact, and sampled deals solved apart.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import ddz
import ddz.arena
from ddz.arena.protocol import ProtocolBot, notation_of, request

ECHO = ("import sys\n"
        "for line in sys.stdin:\n"
        "    sys.stdout.write('{\"type\":\"ready\"}\\n' if '\"hello\"' in line else '{\"id\":0}\\n')\n"
        "    sys.stdout.flush()\n")
FIRST = ("import ddz.arena\n"
         "class First:\n"
         "    def act(self, obs, legal):\n"
         "        return legal[0]\n"
         "ddz.arena.serve(First(), name='first')\n")


def _load():
    return os.getloadavg()


def cmd_workers(args):
    print(f"load before {_load()}")
    out = {}
    for workers in (1, 2):
        r = ddz.arena.run(["greedy", "random"], deals=args.deals, seed=args.seed, workers=workers)
        out[workers] = r
        print(f"workers={workers}: {r.hands} hands in {r.seconds:.2f} s = {r.hands_per_second:,.0f} hands/s; "
              f"greedy WP {r.bots[0]['wp']:.4f} {r.bots[0]['wp_ci']}, ADP {r.bots[0]['adp']:+.4f} {r.bots[0]['adp_ci']}")
    same = out[1].numbers() == out[2].numbers()
    print(f"identical numbers: {same}; speed-up {out[2].hands_per_second / out[1].hands_per_second:.2f}x")
    print(f"load after {_load()}")


def cmd_selfplay(args):
    from ddz.distributed import iter_selfplay  # noqa: F401  (the public loop of `ddz selfplay`)
    from ddz.distributed import _iter_units
    print(f"load before {_load()}")
    arena_wall, arena_cpu, self_wall, self_cpu = [], [], [], []
    ddz.arena.run(["greedy", "random"], deals=50, seed=0)      # warm up both rule sets
    list(_iter_units(50, 0, None, ["greedy", "random", "random"], ddz.STANDARD, None, None, None, "summary"))
    for _ in range(args.repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        r = ddz.arena.run(["greedy", "random"], deals=args.deals, seed=args.seed)
        arena_wall.append(r.hands / (time.perf_counter() - t0))
        arena_cpu.append(r.hands / (time.process_time() - c0))
        c0, t0 = time.process_time(), time.perf_counter()
        n = sum(1 for _ in _iter_units(2 * args.deals, args.seed, None, ["greedy", "random", "random"],
                                       ddz.STANDARD, None, None, None, "summary"))
        self_wall.append(n / (time.perf_counter() - t0))
        self_cpu.append(n / (time.process_time() - c0))
    med = statistics.median
    print(f"arena    : {med(arena_wall):,.0f} hands/s wall, {med(arena_cpu):,.0f} by CPU time "
          f"(runs {', '.join(f'{x:,.0f}' for x in arena_cpu)})")
    print(f"selfplay : {med(self_wall):,.0f} hands/s wall, {med(self_cpu):,.0f} by CPU time "
          f"(runs {', '.join(f'{x:,.0f}' for x in self_cpu)})")
    print(f"arena / selfplay: {med(arena_wall) / med(self_wall):.2f} wall, {med(arena_cpu) / med(self_cpu):.2f} CPU")
    print(f"load after {_load()}")


def _decisions(hands, seed):
    """(hand, game clone, observation, legal) at every play decision of ``hands`` hands."""
    out = []
    rules = ddz.Rules.profile("douzero")
    bot = ddz.GreedyBot()
    for i in range(hands):
        g = ddz.Game(rules, seed=seed + i)
        g.step(3)
        while g.current_player is not None:
            obs, legal = g.observation(), g.legal_actions()
            out.append((i, g.clone(), obs, legal))
            g.step(bot.act(obs, legal))
    return out


def _bucket(n):
    for hi, name in ((1, "1"), (5, "2-5"), (20, "6-20"), (50, "21-50")):
        if n <= hi:
            return name
    return "51+"


def cmd_protocol(args):
    print(f"load before {_load()}")
    decisions = _decisions(args.hands, args.seed)
    rules = decisions[0][1].rules
    texts, _ = notation_of(decisions[0][1].action_space)
    proto = ProtocolBot([sys.executable, "-c", FIRST])
    echo = ProtocolBot([sys.executable, "-c", ECHO])
    echo.new_hand(rules, 0, 0, "bench")
    times = {"protocol": {}, "echo": {}}
    clock = time.perf_counter
    dumps, loads = json.dumps, json.loads
    for _ in range(args.repeats):
        hand = None
        for k, (i, g, obs, legal) in enumerate(decisions):
            if i != hand:
                hand = i
                proto.new_hand(rules, 0, 0, f"bench {i}")
                history = []
            b = _bucket(len(legal))
            t0 = clock()
            proto.act_game(g, obs, legal)
            t1 = clock()
            # the bare echo: the same message built and sent, a short line back
            ids = g.legal_action_ids().tolist()
            echo._proc.stdin.write((dumps(request(obs, legal, ids, texts, k, None, None, history),
                                          separators=(",", ":")) + "\n").encode())
            loads(echo._readline(10.0))
            t2 = clock()
            times["protocol"].setdefault(b, []).append(t1 - t0)
            times["echo"].setdefault(b, []).append(t2 - t1)
    proto.close()
    echo.close()
    print(f"{len(decisions)} decisions x {args.repeats}; median microseconds per decision")
    print(f"{'legal actions':>14}  {'decisions':>9}  {'protocol':>9}  {'bare echo':>9}  {'ratio':>6}")
    order = ["1", "2-5", "6-20", "21-50", "51+"]
    for b in order:
        if b not in times["echo"]:
            continue
        p = statistics.median(times["protocol"][b]) * 1e6
        e = statistics.median(times["echo"][b]) * 1e6
        print(f"{b:>14}  {len(times['echo'][b]) // args.repeats:>9}  {p:>9.0f}  {e:>9.0f}  {p / e:>6.2f}")
    allp = statistics.median([x for v in times["protocol"].values() for x in v]) * 1e6
    alle = statistics.median([x for v in times["echo"].values() for x in v]) * 1e6
    print(f"{'all':>14}  {len(decisions):>9}  {allp:>9.0f}  {alle:>9.0f}  {allp / alle:>6.2f}")
    print(f"load after {_load()}")


def cmd_decisions(args):
    """ExpertBot's time per decision, distribution (douzero mode against ``--against``):
    split-driven, probed (the first sampled deal not exact within the probe) and searched
    (the sampled deals decided) apart."""
    times = {None: [], "probe": [], "samples": []}

    class Timed(ddz.ExpertBot):
        def act(self, obs, legal):
            t0 = time.perf_counter()
            a = super().act(obs, legal)
            times[self.searched if obs.phase == "playing" else None].append(time.perf_counter() - t0)
            return a

    print(f"load before {_load()}")
    c0 = time.process_time()
    ddz.arena.run([Timed, args.against], deals=args.deals, seed=args.seed)
    cpu = time.process_time() - c0
    allt = sorted(t for v in times.values() for t in v)
    for name, v in (("split only", times[None]), ("probe not exact", times["probe"]),
                    ("sampled deals", times["samples"]), ("all", allt)):
        v = sorted(v)
        if not v:
            continue
        q = lambda f: v[min(len(v) - 1, int(f * len(v)))] * 1e3  # noqa: E731
        print(f"{name:>20}: {len(v):6d} decisions, mean {sum(v) / len(v) * 1e3:.2f} ms, median {q(0.5):.2f}, "
              f"p90 {q(0.9):.2f}, p99 {q(0.99):.2f}, max {v[-1] * 1e3:.1f} ms")
    print(f"process CPU time of the whole run {cpu:.1f} s")
    print(f"load after {_load()}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("workers")
    p.add_argument("--deals", type=int, default=20000)
    p.add_argument("--seed", type=int, default=20261202)
    p.set_defaults(func=cmd_workers)
    p = sub.add_parser("selfplay")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--seed", type=int, default=20261202)
    p.add_argument("--repeats", type=int, default=5)
    p.set_defaults(func=cmd_selfplay)
    p = sub.add_parser("decisions")
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--against", default="expert-2026-12", help="the opponent (a bot spec; default expert-2026-12)")
    p.set_defaults(func=cmd_decisions)
    p = sub.add_parser("protocol")
    p.add_argument("--hands", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeats", type=int, default=3)
    p.set_defaults(func=cmd_protocol)
    args = ap.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
