"""NeuralBot's decision against DouZero's DeepAgent.act, on the same information sets, one
thread each (issue 43 "Speed").

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
        PYTHONPATH=src python bench/bench_neural.py [--hands 60] [--repeat 5] [--clock cpu|wall]

Needs torch (``pip install torch==2.13.0``) and DouZero (``pip install --no-deps
douzero==1.1.0``). Random DouZero models (DouZero's default initialisation) are saved by
torch.save to a temporary folder; ``--hands`` seeded hands are played in DouZero's GameEnv
by DeepAgent, and at every decision with at least two legal actions the bench keeps
DeepAgent's information set (a deep copy) and ddz's ``(Observation, legal_actions)`` of
the same position (``ddz.interop.douzero_game``). Then, decision by decision, it times
``DeepAgent.act(infoset)`` (DouZero's ``get_obs`` and torch's forward) and
``NeuralBot.act(observation, legal)`` (features from the Observation and the numpy
forward), each the median of ``--repeat`` calls, and beside them the floor: the four
512 x 512 layers alone (numpy, float32) on as many rows as the decision has distinct
actions. The batched form is timed on 1,024 games of a CVectorGame (``act_vector``: the
decisions of one step in one product per layer).

``--clock cpu`` (default) reads ``time.thread_time`` (the machine is shared: CPU time is
disturbed less by the other jobs), ``wall`` ``time.perf_counter``.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import os
import pathlib
import sys
import tempfile
import time
import types

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import ddz  # noqa: E402
from ddz import interop  # noqa: E402
from ddz.neural import NeuralBot  # noqa: E402

POSITIONS = ("landlord", "landlord_down", "landlord_up")
BUCKETS = ((2, 4), (5, 19), (20, 49), (50, 10_000))


def douzero():
    spec = importlib.util.find_spec("douzero")
    if "douzero.dmc" not in sys.modules and importlib.util.find_spec("git") is None:
        stand_in = types.ModuleType("douzero.dmc")       # douzero.dmc's __init__ imports gitpython
        stand_in.__path__ = [str(pathlib.Path(spec.origin).parent / "dmc")]
        sys.modules["douzero.dmc"] = stand_in
    import torch
    from douzero.dmc.models import model_dict
    from douzero.env import game as game_mod
    from douzero.evaluation.deep_agent import DeepAgent
    torch.set_num_threads(1)
    return torch, model_dict, game_mod, DeepAgent


class Told:
    action = None

    def act(self, infoset):
        return self.action


def positions(folder, agents, hands, game_mod):
    """(infoset copy, observation, legal, DouZero's action count, distinct actions) per
    decision with a choice."""
    out = []
    for s in range(hands):
        dealt = ddz.Game(ddz.Rules.profile("douzero"), seed=s)
        dealt.step(3)
        data, lord = interop.douzero_card_play_data(dealt), s % 3
        game = interop.douzero_game(data, lord)
        told = {p: Told() for p in POSITIONS}
        env = game_mod.GameEnv(told)
        env.card_play_init({k: list(v) for k, v in data.items()})
        while not env.game_over:
            info = env.game_infoset
            pos = info.player_position
            legal = game.legal_actions()
            by_cards = {tuple(interop.to_douzero(p)): p for p in reversed(legal)}
            if len(info.legal_actions) > 1:
                out.append((copy.deepcopy(info), game.observation(), legal, len(info.legal_actions), len(by_cards)))
            theirs = agents[pos].act(info)
            play = by_cards.get(tuple(sorted(theirs)), legal[0])
            told[pos].action = interop.to_douzero(play)
            env.step()
            game.step(play)
    return out


def timer(clock):
    return time.thread_time if clock == "cpu" else time.perf_counter


def median_time(f, repeat, now):
    times = []
    for _ in range(repeat):
        t = now()
        f()
        times.append(now() - t)
    return float(np.median(times))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--vector", type=int, default=1024, help="games of the batched run")
    args = ap.parse_args(argv)
    now = timer(args.clock)
    torch, model_dict, game_mod, DeepAgent = douzero()
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        torch.manual_seed(0)
        for p in POSITIONS:
            torch.save(model_dict[p]().state_dict(), folder / f"{p}.ckpt")
        agents = {p: DeepAgent(p, str(folder / f"{p}.ckpt")) for p in POSITIONS}
        bot = NeuralBot(folder)
        decisions = positions(folder, agents, args.hands, game_mod)
    rng = np.random.default_rng(0)
    hidden = [rng.standard_normal((512, 512)).astype(np.float32) for _ in range(4)]

    def floor(n):
        x = rng.standard_normal((n, 512)).astype(np.float32)
        return lambda: [x @ w for w in hidden]

    rows = []
    for info, obs, legal, n_dz, n_ddz in decisions:
        dz = median_time(lambda: agents[info.player_position].act(info), args.repeat, now)
        nb = median_time(lambda: bot.act(obs, legal), args.repeat, now)
        fl = median_time(floor(n_ddz), args.repeat, now)
        rows.append((n_dz, dz, nb, fl))
    a = np.array(rows)
    print(f"{len(a)} decisions with >= 2 legal actions ({args.hands} hands), clock {args.clock}, "
          f"median of {args.repeat} calls each; load {os.getloadavg()[0]:.1f}")
    print("| legal actions | decisions | DeepAgent.act ms | NeuralBot.act ms | speed-up | floor ms (4 x 512x512) |")
    print("|---|---|---|---|---|---|")
    for lo, hi in BUCKETS + ((2, 10_000),):
        sel = a[(a[:, 0] >= lo) & (a[:, 0] <= hi)]
        if not len(sel):
            continue
        name = "all" if (lo, hi) == (2, 10_000) else f"{lo}-{hi}" if hi < 10_000 else f">= {lo}"
        dz, nb, fl = (np.median(sel[:, k]) * 1e3 for k in (1, 2, 3))
        print(f"| {name} | {len(sel)} | {dz:.3f} | {nb:.3f} | {dz / nb:.1f}x | {fl:.3f} |")
    print(f"NeuralBot p99 {np.percentile(a[:, 2], 99) * 1e3:.3f} ms, max {a[:, 2].max() * 1e3:.3f} ms; "
          f"DeepAgent p99 {np.percentile(a[:, 1], 99) * 1e3:.3f} ms")
    if args.vector:
        from ddz.envs import CVectorGame
        vg = CVectorGame(args.vector, ddz.Rules.profile("douzero"), seed=1)
        pick = np.random.default_rng(1)
        done = 0
        spent = 0.0
        for _ in range(60):
            t = now()
            ids = bot.act_vector(vg)
            spent += now() - t
            done += int((ids >= 0).sum())
            legal, off = vg.legal_ids()
            rand = legal[off[:-1] + (pick.random(len(ids)) * np.diff(off)).astype(np.int64)]
            vg.step(np.where(ids >= 0, ids, rand))
        print(f"act_vector on {args.vector} games: {done / spent:,.0f} decisions/s "
              f"({done} play-phase decisions in 60 steps, {spent:.2f} s)")


if __name__ == "__main__":
    main()
