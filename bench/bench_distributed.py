"""Self-play on Ray (issue 13): hands per second in one process against Ray with 1 and 2
workers, and the cost of one Ray task.

    python bench/bench_distributed.py [--games 2000] [--runs 5] [--cpus 2] [--niceness N]

* in-process: ``ddz.distributed.selfplay(games, seed)`` (no Ray);
* Ray, N workers: ``selfplay(games, seed, workers=N, ray=True)`` on a local cluster
  started once with ``ray.init(num_cpus=--cpus)`` (start-up and the first call, which
  starts the worker processes, are timed separately and not in the rates);
* "JSON lines": what ``ddz selfplay --out`` runs (``ddz.distributed._iter_units(...,
  "line")``): each record serialised to its JSON line where it was played (by the Ray
  worker), so the driver only receives text;
* all run side by side, ``--runs`` rounds, and the table shows the medians; every run's
  records are checked equal to the in-process run's.

The CPU time of the whole process tree (the driver, and the Ray daemons and workers under
it; Linux only) is read around each run, so the table also shows CPU seconds per 1,000
hands (what Ray costs in work) and the cores the tree used on average (how much CPU the
machine had to give: a parallel loop can only be faster if this exceeds 1).

Bots: ``greedy, random, random`` (``ddz selfplay``'s default). Ray runs its worker
processes at niceness 15 (its ``worker_niceness`` default): on a machine shared with
other busy processes they get far less CPU than the in-process loop (niceness 0);
``--niceness 0`` sets ``RAY_worker_niceness`` for a like-for-like comparison. The per-task overhead is
measured with an empty remote task: the round trip of one ``ray.get(f.remote())`` at a
time, and the cost per task of 1,000 submitted at once. No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))


def _noop():
    return None


def _tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of ``root`` and every process below it (Linux /proc):
    the driver, and the Ray daemons and workers that ``ray.init`` started under it."""
    ticks = os.sysconf("SC_CLK_TCK")
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks)
    children = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += stats.get(pid, (0, 0.0))[1]
        todo += children.get(pid, [])
    return total


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cpus", type=int, default=2, help="num_cpus of the local Ray cluster")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--niceness", type=int, default=None,
                    help="RAY_worker_niceness for the Ray workers (default: Ray's, 15)")
    args = ap.parse_args(argv)
    if args.niceness is not None:
        os.environ["RAY_worker_niceness"] = str(args.niceness)

    import ray

    from ddz.core.implementation import engine_note
    from ddz import STANDARD
    from ddz.distributed import _iter_units, selfplay
    bots = ("greedy", "random", "random")

    t0 = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    init_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    selfplay(4 * args.cpus, seed=0, workers=args.cpus, bots=bots, ray=True, chunk=1)   # start the workers
    warm_s = time.perf_counter() - t0

    load_before = os.getloadavg()
    loops = [("in-process", dict())] + [(f"Ray, {n} worker{'s' if n > 1 else ''}", dict(workers=n, ray=True))
                                        for n in range(1, args.cpus + 1)]
    # what `ddz selfplay --out` runs: records as JSON lines, serialised where they are played
    loops += [("in-process, JSON lines", dict(form="line")),
              (f"Ray, {args.cpus} workers, JSON lines", dict(workers=args.cpus, ray=True, form="line"))]
    rates = {name: [] for name, _ in loops}
    cpu = {name: [] for name, _ in loops}
    cores = {name: [] for name, _ in loops}
    me = os.getpid()
    for r in range(args.runs):
        reference = None
        for name, kw in loops:
            c0 = _tree_cpu(me)
            t0 = time.perf_counter()
            lines = "form" in kw
            if lines:
                recs = list(_iter_units(args.games, args.seed + r, kw.get("workers"), bots, STANDARD,
                                        None, None, kw.get("ray"), kw["form"]))
            else:
                recs = selfplay(args.games, seed=args.seed + r, bots=bots, **kw)
            wall = time.perf_counter() - t0
            used = _tree_cpu(me) - c0
            rates[name].append(args.games / wall)
            cpu[name].append(used / args.games * 1000)
            cores[name].append(used / wall)
            if lines:
                recs = [json.loads(line) for line, _ in recs]
            if reference is None:
                reference = recs
            elif recs != reference:
                raise SystemExit(f"{name}: records differ from the in-process run")

    noop = ray.remote(num_cpus=1)(_noop)
    ray.get(noop.remote())
    trips = []
    for _ in range(200):
        t0 = time.perf_counter()
        ray.get(noop.remote())
        trips.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    ray.get([noop.remote() for _ in range(1000)])
    batch = (time.perf_counter() - t0) / 1000
    ray.shutdown()

    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"engine: {engine_note()}; Ray {ray.__version__}; {os.cpu_count()} CPUs; "
          f"worker niceness {args.niceness if args.niceness is not None else 'Ray default (15)'}")
    print(f"load average before the runs {load_before[0]:.2f}; after: {load}")
    print(f"{args.games} hands per run, bots {','.join(bots)}, median of {args.runs} runs; "
          f"ray.init {init_s:.1f} s, first call (worker start) {warm_s:.1f} s\n")
    print("| loop | hands/s (median) | vs in-process (same form) | CPU s per 1,000 hands | cores used "
          "| runs (hands/s) |")
    print("|---|---:|---:|---:|---:|---|")
    for name, _ in loops:
        med = statistics.median(rates[name])
        base = statistics.median(rates["in-process, JSON lines" if "JSON" in name else "in-process"])
        print(f"| {name} | {med:,.0f} | {med / base:.2f}× | {statistics.median(cpu[name]):.2f} | "
              f"{statistics.median(cores[name]):.2f} | "
              f"{' '.join(f'{x:,.0f}' for x in rates[name])} |")
    print(f"\nempty task: {statistics.median(trips) * 1e3:.2f} ms per round trip (median of 200), "
          f"{batch * 1e3:.2f} ms per task with 1,000 in flight")
    return 0


if __name__ == "__main__":
    sys.exit(main())
