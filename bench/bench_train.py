"""Training throughput: ``python -m ddz.train`` against DouZero's own ``train.py``, on CPU,
the same settings (issue 43, "Training throughput").

    PYTHONPATH=src python bench/bench_train.py [--seconds 180] [--rounds 2] [--nice 5]

Needs torch, ``douzero`` (``pip install --no-deps douzero``) and ``gitpython`` (DouZero's
``train.py`` imports it). DouZero's PyPI package holds ``douzero.dmc`` but not the
repository's four-line ``train.py``; this script writes the same four lines to a
temporary folder (``flags = parser.parse_args(); train(flags)``) and runs them with
``--actor_device_cpu --training_device cpu --num_actors A --num_threads 1`` (T = 100,
B = 32: 3,200 frames a learner step, its defaults), against ``python -m ddz.train OUT
--batch-size 3200 --threads 1`` (256 games in one vector, actors and learner in one
process). One BLAS / OpenMP thread in each (``OMP_NUM_THREADS=1`` and the like), both
under the same ``nice``, alternating, each for ``--seconds`` of wall time.

Frames are DouZero's (T x B per learner step, i.e. decisions learned from). Per run it
reports frames/s of wall time from the process's start (DouZero: the frames of its last
log line, written every 5 s, over that line's time since the start; ddz: its frames over
the process's whole life, imports and the final save included; "log" is each one's own
figure: DouZero's mean of its last 24 five-second rates, ddz's frames over its loop's time), and frames per CPU-second (the process tree's user + system time, read with
psutil just before the run is stopped), which does not depend on how many of the
machine's cores a run could get. Prints one line per run and a markdown table.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import psutil

TRAIN_PY = """\
# DouZero's train.py (github.com/kwai/DouZero): its package's parser and train()
import os
from douzero.dmc import parser, train

if __name__ == '__main__':
    flags = parser.parse_args()
    os.environ["CUDA_VISIBLE_DEVICES"] = flags.gpu_devices
    train(flags)
"""
ENV1 = {k: "1" for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")}


def _tree_cpu(proc: psutil.Process) -> float:
    total = 0.0
    for p in [proc] + proc.children(recursive=True):
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


def _run(cmd, seconds, nice, cwd, log_path):
    """Run ``cmd`` in its own session for ``seconds``, then stop its process group.
    Returns (wall seconds, CPU seconds of the tree, output text)."""
    env = dict(os.environ, **ENV1)
    with open(log_path, "w") as log:
        t0 = time.time()
        p = subprocess.Popen(["nice", "-n", str(nice)] + cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True)
        proc = psutil.Process(p.pid)
        cpu = 0.0
        while p.poll() is None and time.time() - t0 < seconds:
            time.sleep(1)
            cpu = max(cpu, _tree_cpu(proc))
        wall = time.time() - t0
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGINT)          # the group of the process started here
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
    with open(log_path) as f:
        return wall, cpu, f.read(), t0


def douzero(seconds, nice, work, k, actors):
    out = os.path.join(work, f"dz{k}")
    cmd = [sys.executable, "train.py", "--actor_device_cpu", "--training_device", "cpu", "--num_actors", str(actors),
           "--num_threads", "1", "--batch_size", "32", "--unroll_length", "100", "--objective", "wp",
           "--savedir", out, "--xpid", "bench", "--disable_checkpoint"]
    wall, cpu, text, t0 = _run(cmd, seconds, nice, work, os.path.join(work, f"dz{k}.log"))
    lines = re.findall(r"\] After (\d+) \(.*?frames: @ [\d.]+ fps \(avg@ ([\d.]+) fps\)", text)
    stamps = re.findall(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+)\] After", text)
    if not lines:
        raise SystemExit(f"DouZero's train.py logged no progress:\n{text[-3000:]}")
    frames = int(lines[-1][0])
    last = time.mktime(time.strptime(stamps[-1].split(",")[0], "%Y-%m-%d %H:%M:%S")) + int(stamps[-1].split(",")[1]) / 1000
    return {"who": "DouZero train.py", "frames": frames, "wall": last - t0, "fps": frames / (last - t0),
            "cpu": cpu, "fpc": frames / cpu if cpu else float("nan"), "log_avg": float(lines[-1][1])}


def ddz_train(seconds, nice, work, k, num_envs):
    out = os.path.join(work, f"ddz{k}")
    cmd = [sys.executable, "-m", "ddz.train", out, "--frames", str(10 ** 9), "--num-envs", str(num_envs),
           "--batch-size", "3200", "--save-every", str(10 ** 9), "--threads", "1", "--seconds", str(seconds - 10)]
    wall, cpu, text, _ = _run(cmd, seconds + 60, nice, work, os.path.join(work, f"ddz{k}.log"))
    m = re.search(r"([\d,]+) frames, [\d,]+ hands, ([\d,]+) frames/s this run", text)
    if not m:
        raise SystemExit(f"ddz.train printed no result:\n{text[-3000:]}")
    frames = int(m.group(1).replace(",", ""))
    return {"who": "ddz.train", "frames": frames, "wall": wall, "fps": frames / wall, "cpu": cpu,
            "fpc": frames / cpu if cpu else float("nan"), "log_avg": float(m.group(2).replace(",", ""))}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=180)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--nice", type=int, default=5)
    ap.add_argument("--actors", type=int, default=1, help="DouZero's --num_actors (actor processes)")
    ap.add_argument("--num-envs", type=int, default=256, help="ddz.train's --num-envs")
    args = ap.parse_args(argv)
    work = tempfile.mkdtemp(prefix="ddz_bench_train_")
    with open(os.path.join(work, "train.py"), "w") as f:
        f.write(TRAIN_PY)
    rows = []
    print(f"work folder {work}; load before {os.getloadavg()}", flush=True)
    for k in range(args.rounds):
        for run in (douzero, ddz_train):
            extra = args.actors if run is douzero else args.num_envs
            r = run(args.seconds, args.nice, work, k, extra)
            rows.append(r)
            print(f"{r['who']:17} round {k}: {r['frames']:,} frames in {r['wall']:.0f} s = {r['fps']:,.0f} frames/s, "
                  f"{r['cpu']:.0f} CPU-s = {r['fpc']:,.0f} frames/CPU-s (own log {r['log_avg']:.0f}); "
                  f"load {os.getloadavg()}", flush=True)
    print("\n| run | frames | wall s | frames/s | CPU s | frames/CPU-s |\n|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['who']} | {r['frames']:,} | {r['wall']:.0f} | {r['fps']:,.0f} | {r['cpu']:.0f} | {r['fpc']:,.0f} |")
    for key, what in (("fps", "frames/s"), ("fpc", "frames/CPU-s")):
        dz = [r[key] for r in rows if r["who"] != "ddz.train"]
        us = [r[key] for r in rows if r["who"] == "ddz.train"]
        print(f"ratio ({what}, mean of runs): {sum(us) / len(us) / (sum(dz) / len(dz)):.2f}x")


if __name__ == "__main__":
    main()
