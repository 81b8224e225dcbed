"""What a fresh process pays: ``import ddz``, then the first call of each kind (issue 24).

Run from the repository root (after building or installing ddz)::

    python bench/bench_startup.py [--runs 9] [--src DIR ...]

Every measurement is one new Python process that imports ddz and makes one first call
(so nothing is cached from an earlier call); the process reports the wall-clock and CPU
time (``time.process_time``, which other jobs on the machine disturb less) of the import
and of the call. Medians over ``--runs`` processes per scenario. ``--src DIR`` (repeatable)
runs the same scenarios against the ``ddz`` in ``DIR`` (a checkout's ``src/``, built in
place) instead of the one Python imports by default, interleaving the trees run by run,
so that a before/after comparison shares the machine's load. ``--cli`` adds the whole
``ddz moves`` command (interpreter start included) against a bare interpreter's start.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

#: name -> (setup after the import, untimed; the first call, timed)
SCENARIOS = {
    "legal_moves('33344455', None)": ("", "ddz.legal_moves('33344455', None)"),
    "legal_moves(..., Rules(kickers='repeat'))": ("r = ddz.Rules(kickers='repeat')",
                                                  "ddz.legal_moves('33344455', None, r)"),
    "legal_moves(hand, '55669999') (plain text to beat)": ("", "ddz.legal_moves('3478TJQQKKA2BR', '55669999')"),
    "classify('444+8')": ("", "ddz.classify('444+8')"),
    "Play.parse('333444+56')": ("", "ddz.Play.parse('333444+56')"),
    "ActionSpace().legal_ids('33344455')": ("", "ddz.ActionSpace().legal_ids('33344455')"),
    "Game(seed=1): deal, bid, first play": (
        "", "g = ddz.Game(seed=1)\n"
            "while g.phase is not ddz.Phase.PLAYING: g.step(g.legal_actions()[-1])\n"
            "g.step(g.legal_actions()[0])"),
    "solve(Position(['34', '5555', '6']))": ("", "ddz.solve(ddz.Position(['34', '5555', '6']))"),
    "Rules.four_player(): legal_moves": ("r = ddz.Rules.four_player()",
                                         "ddz.legal_moves('33334444555', None, r)"),
}

_CHILD = """
import time
t0, c0 = time.perf_counter(), time.process_time()
import ddz
t1, c1 = time.perf_counter(), time.process_time()
{setup}
t2, c2 = time.perf_counter(), time.process_time()
{call}
t3, c3 = time.perf_counter(), time.process_time()
import json, sys
json.dump({{"import": t1 - t0, "import_cpu": c1 - c0, "call": t3 - t2, "call_cpu": c3 - c2,
           "impl": ddz.IMPLEMENTATION, "file": ddz.__file__}}, sys.stdout)
"""


def child(src, setup, call):
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    code = _CHILD.format(setup=setup, call=call)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def wall(src, argv):
    """Seconds of a whole command (interpreter start included)."""
    import time
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    t0 = time.perf_counter()
    subprocess.run(argv, env=env, capture_output=True, check=True)
    return time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--src", action="append", default=None,
                    help="a directory holding the ddz package to time (repeatable; default: the importable ddz)")
    ap.add_argument("--cli", action="store_true", help="also time the whole `ddz moves` command")
    args = ap.parse_args(argv)
    trees = args.src or [""]
    res = {(t, name): [] for t in trees for name in SCENARIOS}
    imports = {t: [] for t in trees}
    files = {}
    for _ in range(args.runs):
        for name, (setup, call) in SCENARIOS.items():
            for t in trees:                           # interleaved: the trees share the load
                r = child(t, setup, call)
                files[t] = f"{r['file']} ({r['impl']})"
                res[t, name].append((r["call"] * 1e3, r["call_cpu"] * 1e3))
                imports[t].append((r["import"] * 1e3, r["import_cpu"] * 1e3))
    cli = {}
    if args.cli:
        cmd = [sys.executable, "-c", "from ddz.cli import main; main(['moves', '33344455'])"]
        bare = [sys.executable, "-c", "pass"]
        for t in trees:
            cli[t, "bare"], cli[t, "moves"] = [], []
        for _ in range(args.runs):
            for t in trees:
                cli[t, "bare"].append(wall(t, bare) * 1e3)
                cli[t, "moves"].append(wall(t, cmd) * 1e3)

    def med(pairs, k):
        return statistics.median(p[k] for p in pairs)

    print(f"median of {args.runs} fresh processes per cell; ms wall (ms CPU)")
    for t in trees:
        print(f"  {t or 'default'}: {files[t]}")
    head = f"{'first call':52s}" + "".join(f"{(t or 'default')[-28:]:>30s}" for t in trees)
    print(head)
    print("-" * len(head))
    print(f"{'import ddz':52s}" + "".join(
        f"{med(imports[t], 0):>19.1f} ({med(imports[t], 1):6.1f})" + " " * 3 for t in trees))
    for name in SCENARIOS:
        print(f"{name:52s}" + "".join(
            f"{med(res[t, name], 0):>19.2f} ({med(res[t, name], 1):6.2f})" + " " * 3 for t in trees))
    if cli:
        for what in ("bare", "moves"):
            label = "python -c pass (interpreter start)" if what == "bare" else "ddz moves 33344455 (whole process)"
            print(f"{label:52s}" + "".join(f"{statistics.median(cli[t, what]):>19.1f}" + " " * 12 for t in trees))


if __name__ == "__main__":
    main()
