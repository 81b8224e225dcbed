"""The RL environments of ddz.envs (issue 13), side by side with OpenSpiel and RLCard.

    python bench/bench_envs.py [--games 1024] [--steps 30] [--decisions 20000] [--repeats 5]

µs per decision (and decisions per second), uniformly random legal actions, the choice
included in the time; every engine runs ``--repeats`` times, the engines taking turns
(so a change of load hits them alike), and the median is shown with the spread:

* ``VectorGame``: ``--games`` games in C (``CVectorGame``), actions picked with numpy
  from the CSR ids of ``legal_ids()`` and stepped with ``step()`` (observations encoded
  for every game, the auction included, auto-reset on game end), ``--steps`` calls;
* ``VectorGame C, observe=False``: the same without encoding observations (OpenSpiel's
  loop below encodes none either);
* ``VectorGame.play``: the same games stepped ``--steps`` times by the built-in random
  policy inside C (no Python per step; observations encoded once at the end);
* ``PyVectorGame``: the pure-Python reference vector (a loop over ``ddz.Game``), 64 games;
* ``PettingZoo raw_env``: ``last()`` + ``step()`` of ``ddz.envs.pettingzoo.raw_env`` (the
  observation and mask of the agent to act, as the AEC loop asks for them; the choice
  reads the ``int8`` mask through a ``bool`` view: ``np.flatnonzero`` on ``int8`` takes
  5x as long as the env step itself);
* ``Gymnasium``: ``DouDizhuEnv.step()`` (one seat against two ``RandomBot``; a decision is
  one agent step, the bots' moves included);
* ``OpenSpiel``: ``state.legal_actions()`` + ``state.apply_action()`` of
  ``pyspiel.load_game("dou_dizhu")`` (no observation);
* ``RLCard``: ``env.step()`` of ``rlcard.make("doudizhu")`` (its state encoding included).

Engines missing from the environment are skipped. No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import numpy as np  # noqa: E402

import ddz  # noqa: E402
from ddz.envs.vector import CVectorGame, PyVectorGame  # noqa: E402


def vector_game(games, steps, cls=CVectorGame, observe=True):
    vg = cls(games, seed=0, observe=observe)
    rng = np.random.default_rng(0)
    t = time.perf_counter()
    for _ in range(steps):
        ids, offsets = vg.legal_ids()
        counts = np.diff(offsets)
        vg.step(ids[offsets[:-1] + (rng.random(games) * counts).astype(np.int64)])
    return (time.perf_counter() - t) / (games * steps)


def vector_play(games, steps):
    vg = CVectorGame(games, seed=0)
    t = time.perf_counter()
    vg.play(steps)
    return (time.perf_counter() - t) / (games * steps)


def pettingzoo_env(decisions):
    from ddz.envs.pettingzoo import raw_env
    env = raw_env()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    t = time.perf_counter()
    n = 0
    while n < decisions:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))   # numpy's nonzero is 5x slower on int8
        env.step(int(legal[rng.integers(len(legal))]))
        n += 1
    return (time.perf_counter() - t) / n


def gymnasium_env(decisions):
    from ddz.envs.gymnasium import DouDizhuEnv
    env = DouDizhuEnv()
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    t = time.perf_counter()
    for _ in range(decisions):
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        obs, _, term, _, _ = env.step(int(legal[rng.integers(len(legal))]))
        if term:
            obs, _ = env.reset()
    return (time.perf_counter() - t) / decisions


def openspiel(decisions):
    import pyspiel
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(0)
    state = game.new_initial_state()
    t = time.perf_counter()
    n = 0
    while n < decisions:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        n += 1
    return (time.perf_counter() - t) / n


def rlcard_env(decisions):
    import rlcard
    env = rlcard.make("doudizhu", config={"seed": 0})
    rng = random.Random(0)
    state, _ = env.reset()
    t = time.perf_counter()
    for _ in range(decisions):
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[rng.randrange(len(legal))])
        if env.is_over():
            state, _ = env.reset()
    return (time.perf_counter() - t) / decisions


def load():
    try:
        return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--decisions", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    g, steps, d = args.games, args.steps, args.decisions
    rows = [(f"VectorGame C ({g} games, numpy choice)", lambda: vector_game(g, steps)),
            ("VectorGame C, observe=False", lambda: vector_game(g, steps, observe=False)),
            ("VectorGame.play (C random policy)", lambda: vector_play(g, steps)),
            ("PyVectorGame (64 games)", lambda: vector_game(64, max(1, d // 640), PyVectorGame)),
            ("PettingZoo raw_env", lambda: pettingzoo_env(d // 4)),
            ("Gymnasium DouDizhuEnv", lambda: gymnasium_env(d // 4)),
            ("OpenSpiel dou_dizhu", lambda: openspiel(d)),
            ("RLCard doudizhu env", lambda: rlcard_env(d // 4))]
    print(f"ddz {ddz.__version__} ({ddz.IMPLEMENTATION}); {args.repeats} runs each, medians; {load()} at the start")
    times = {name: [] for name, _ in rows}
    skipped = {}
    for name, fn in rows:            # warm-up (tables, imports)
        try:
            fn()
        except ImportError as exc:
            skipped[name] = exc.name
    for _ in range(args.repeats):
        for name, fn in rows:
            if name not in skipped:
                times[name].append(fn())
    med = {name: float(np.median(t)) for name, t in times.items() if t}
    print(f"{'engine':40} {'µs/decision':>12} {'(min..max)':>16} {'decisions/s':>12}")
    for name, _ in rows:
        if name in skipped:
            print(f"{name:40} skipped ({skipped[name]} not installed)")
            continue
        t = times[name]
        print(f"{name:40} {med[name] * 1e6:12.3f} {f'({min(t) * 1e6:.2f}..{max(t) * 1e6:.2f})':>16} "
              f"{1 / med[name]:12,.0f}")
    vec, blind, play = rows[0][0], rows[1][0], rows[2][0]
    for base in ("OpenSpiel dou_dizhu", "RLCard doudizhu env"):
        if base in med:
            print(f"{base}: VectorGame {med[base] / med[vec]:.1f}x faster, observe=False "
                  f"{med[base] / med[blind]:.1f}x, VectorGame.play {med[base] / med[play]:.1f}x")
    if "RLCard doudizhu env" in med and "PettingZoo raw_env" in med:
        print(f"PettingZoo step {med['RLCard doudizhu env'] / med['PettingZoo raw_env']:.1f}x faster than RLCard's")
    print(f"{load()} at the end")


if __name__ == "__main__":
    main()
