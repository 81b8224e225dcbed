"""The RL environments of ddz.envs (issue 13), side by side with OpenSpiel and RLCard.

    python bench/bench_envs.py [--games 1024] [--steps 30] [--decisions 20000]

µs per decision (and decisions per second), uniformly random legal actions, the choice
included in the time:

* ``VectorGame``: ``--games`` games, actions picked with numpy from the CSR ids of
  ``legal_ids()`` and stepped with ``step()`` (observations encoded for every game, the
  auction included, auto-reset on game end), ``--steps`` calls;
* ``PettingZoo raw_env``: ``last()`` + ``step()`` of ``ddz.envs.pettingzoo.raw_env`` (the
  observation and mask of the agent to act, as the AEC loop asks for them);
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
from ddz.envs import VectorGame  # noqa: E402


def vector_game(games, steps):
    vg = VectorGame(games, seed=0)
    rng = np.random.default_rng(0)
    t = time.perf_counter()
    for _ in range(steps):
        ids, offsets = vg.legal_ids()
        counts = np.diff(offsets)
        vg.step(ids[offsets[:-1] + (rng.random(games) * counts).astype(np.int64)])
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
        legal = np.flatnonzero(obs["action_mask"])
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
        legal = np.flatnonzero(obs["action_mask"])
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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--decisions", type=int, default=20000)
    args = ap.parse_args(argv)
    rows = [(f"VectorGame ({args.games} games)", lambda: vector_game(args.games, args.steps)),
            ("PettingZoo raw_env", lambda: pettingzoo_env(args.decisions)),
            ("Gymnasium DouDizhuEnv", lambda: gymnasium_env(args.decisions)),
            ("OpenSpiel dou_dizhu", lambda: openspiel(args.decisions)),
            ("RLCard doudizhu env", lambda: rlcard_env(args.decisions))]
    print(f"ddz {ddz.__version__} ({ddz.IMPLEMENTATION})")
    print(f"{'engine':28} {'µs/decision':>12} {'decisions/s':>12}")
    for name, fn in rows:
        try:
            sec = fn()
        except ImportError as exc:
            print(f"{name:28} skipped ({exc.name} not installed)")
            continue
        print(f"{name:28} {sec * 1e6:12.2f} {1 / sec:12,.0f}")


if __name__ == "__main__":
    main()
