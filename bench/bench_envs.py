"""The RL environments of ddz.envs (issue 13), side by side with OpenSpiel and RLCard;
DouZero's features (issue 31) against DouZero's own.

    python bench/bench_envs.py [--games 1024] [--steps 30] [--decisions 20000] [--repeats 5]
                               [--only envs|douzero|rules|gym|threads] [--dz-hands 100] [--dz-calls 20]

µs per decision (and decisions per second), uniformly random legal actions, the choice
included in the time; every engine runs ``--repeats`` times, the engines taking turns
(so a change of load hits them alike), and the median is shown with the spread:

* ``VectorGame``: ``--games`` games in C (``CVectorGame``), actions picked with numpy
  from the CSR ids of ``legal_ids()`` and stepped with ``step()`` (observations encoded
  for every game, the auction included, auto-reset on game end), ``--steps`` calls;
* ``VectorGame C, observe=False``: the same without encoding observations (OpenSpiel's
  loop below encodes none either);
* ``VectorGame C, threads=0``: the same games stepped on every core (issue 30), and
  ``VectorGame C (64 games)``: a small batch, one thread, 16 times the steps (and the same
  with actions drawn beforehand, ``play(record=...)`` replayed through ``step``, only the
  steps timed); and with compact ``uint8`` observations (``obs_dtype``), one thread and
  every core; and with packed rows (``obs_dtype="packed"``), with the numpy choice and on
  pre-drawn actions (1,024 games, 4 times the steps, one thread and every core; 64 games);
* ``VectorGame.play``: the same games stepped ``--steps`` times by the built-in random
  policy inside C (no Python per step; observations encoded once at the end), on one
  thread and on every core;
* ``PyVectorGame``: the pure-Python reference vector (a loop over ``ddz.Game``), 64 games;
* ``PettingZoo raw_env``: ``last()`` + ``step()`` of ``ddz.envs.pettingzoo.raw_env`` (the
  observation and mask of the agent to act, as the AEC loop asks for them; the choice
  reads the ``int8`` mask through a ``bool`` view: ``np.flatnonzero`` on ``int8`` takes
  5x as long as the env step itself);
* ``Gymnasium``: ``DouDizhuEnv.step()`` (one seat against two ``RandomBot``; a decision is
  one agent step, the bots' moves included);
* ``OpenSpiel``: ``state.legal_actions()`` + ``state.apply_action()`` of
  ``pyspiel.load_game("dou_dizhu")`` (no observation);
* ``RLCard``: ``env.step()`` of ``rlcard.make("doudizhu")`` (its state encoding included);
* a hand's start: ``CVectorGame(--games, observe=False).reset()`` per game (the deal from
  the hand's seed, the first bidder, the first legal ids), against a decision.

``--only douzero`` (or the default, after the engines): DouZero's features per decision,
``ddz.envs.douzero.get_obs(game)`` against ``douzero.env.env.get_obs(infoset)`` on a
pinned set of decisions: ``--dz-hands`` hands (seeds 0.., each DouZero deal played from
``douzero_game(card_play_data, seed % 3)``) in lockstep with DouZero's ``GameEnv``, a
policy seeded per hand choosing the move of most cards or, half the time, a random move
of a random play type (the lockstep test's, ``tests/envs/test_douzero_obs.py``). Each decision's time is the median of ``--repeats`` runs (each run
times ``--dz-calls`` calls of ddz's ``get_obs(game)``, as many of ``get_obs(game,
lists=False)`` and 3 of DouZero's, in turn decision by decision); the table gives the
median decision, the decisions with >= 50 legal actions, the ratio of the medians and the
median of the per-decision ratios. ``legal_actions`` is in ddz's time (new lists, or
shared tuples); the legal moves are found by the first of the calls and cached by the
game (DouZero's ``infoset`` brings its own along, found by ``GameEnv``): the "cold"
column times one call on a fresh clone of the game, the legal moves found in the call
(one timer read per call, about 0.05 µs, included). Then ``get_obs_vector`` on a
``CVectorGame`` of 64 and of 1,024 DouZero games after 20 random steps, new arrays and
``reuse=True``: µs per call (median of ``--repeats`` runs of 10,240 / games calls, at least 10), per game in its
play phase and per row.

``--only rules`` (issue 29): ``VectorGame`` per decision under each rule set of the
hand (``bottom_bonus``, ``first_bidder="face_up"``, ``bid_rounds="until_passes"``,
``bidding="rob"``, ``doubling``, each profile, ``Rules.four_player()``) as a ratio to the
default rules in the same run, and ``PyVectorGame`` under the four-player rules.

``--only threads`` (issue 30): ``step()`` of 1,024 games on pre-drawn actions, one thread
then two (every one-thread run first), float32, ``uint8`` and packed rows; ``--busy``: with
a single-threaded busy loop in another process (issue 40 item 6).

``--only gym`` (issue 31): Gymnasium's vector API, ``make_vec(..., "vector_entry_point")``
(the C vector env) against ``VectorGame.step`` and ``make_vec(..., "sync")``.

Engines missing from the environment are skipped. No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import numpy as np  # noqa: E402

import ddz  # noqa: E402
from ddz.envs.vector import CVectorGame, PyVectorGame  # noqa: E402


def vector_game(games, steps, cls=CVectorGame, observe=True, rules=ddz.STANDARD, threads=1, dtype=np.float32):
    vg = cls(games, rules, seed=0, observe=observe, threads=threads, obs_dtype=dtype)
    rng = np.random.default_rng(0)
    t = time.perf_counter()
    for _ in range(steps):
        ids, offsets = vg.legal_ids()
        counts = np.diff(offsets)
        vg.step(ids[offsets[:-1] + (rng.random(games) * counts).astype(np.int64)])
    return (time.perf_counter() - t) / (games * steps)


def vector_replay(games, steps, dtype=np.float32, threads=1):
    """``step()`` on pre-drawn actions (issue 30: where the harness would dominate): the
    actions of ``play(steps, record=...)`` on a twin, replayed through ``step``; only the
    ``step`` calls are timed."""
    record = np.zeros((steps, games), np.int32)
    CVectorGame(games, seed=0, obs_dtype=dtype).play(steps, record=record)
    vg = CVectorGame(games, seed=0, obs_dtype=dtype, threads=threads)
    t = time.perf_counter()
    for row in record:
        vg.step(row)
    return (time.perf_counter() - t) / (games * steps)


def hand_start(games, resets=20):
    """Starting a hand (issue 30): ``CVectorGame(games, observe=False).reset()`` per game:
    the deal from the hand's seed, the first bidder, the legal ids of the first decision."""
    vg = CVectorGame(games, seed=0, observe=False)
    t = time.perf_counter()
    for _ in range(resets):
        vg.reset()
    return (time.perf_counter() - t) / (games * resets)


DTYPES = (np.float32, np.uint8, "packed")


def dtype_name(dtype):
    return dtype if isinstance(dtype, str) else np.dtype(dtype).name


def threads_ratio(games, steps, repeats):
    """``--only threads`` (issue 30): ``step()`` on pre-drawn actions, one thread then two,
    float32, ``uint8`` and packed rows: every one-thread run first (a run right after
    threaded ones is slower on a small VM), then the two-thread runs; medians and their
    ratio."""
    record = np.zeros((steps, games), np.int32)
    CVectorGame(games, seed=0).play(steps, record=record)

    def run(threads, dtype):
        vg = CVectorGame(games, seed=0, obs_dtype=dtype, threads=threads)
        t = time.perf_counter()
        for row in record:
            vg.step(row)
        return (time.perf_counter() - t) / (games * steps)

    med = {}
    for threads in (1, 2):
        for dtype in DTYPES:
            run(threads, dtype)                           # warm-up
            med[threads, dtype] = float(np.median([run(threads, dtype) for _ in range(repeats)]))
    for dtype in DTYPES:
        print(f"step() on pre-drawn actions, {games} games, {dtype_name(dtype)}: one thread "
              f"{med[1, dtype] * 1e6:.3f} us, two threads {med[2, dtype] * 1e6:.3f} us per decision: "
              f"{med[1, dtype] / med[2, dtype]:.2f}x")


def vector_play(games, steps, threads=1):
    vg = CVectorGame(games, seed=0, threads=threads)
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


def douzero_decisions(hands):
    """The pinned decisions: ``[(game, infoset)]`` in lockstep (see the module docstring)."""
    from douzero.env.game import GameEnv

    from ddz import interop
    from ddz.envs.douzero import DOUZERO_RULES, get_obs

    class Agent:
        action = None

        def act(self, infoset):
            return self.action

    out = []
    for seed in range(hands):
        rng = random.Random(seed)
        dealt = ddz.Game(DOUZERO_RULES, seed=seed)
        dealt.step(3)
        data = interop.douzero_card_play_data(dealt)
        game = interop.douzero_game(data, seed % 3)
        agents = {n: Agent() for n in interop.DOUZERO_POSITIONS}
        env = GameEnv(agents)
        env.card_play_init({k: list(v) for k, v in data.items()})
        space = game.action_space
        while not env.game_over:
            out.append((game.clone(), env.game_infoset))
            obs = get_obs(game)
            legal = obs["legal_actions"]
            if rng.random() < 0.5:
                k = max(range(len(legal)), key=lambda i: len(legal[i]))
            else:
                by_type = {}
                for j, i in enumerate(obs["action_ids"].tolist()):
                    by_type.setdefault(space.play(i).type, []).append(j)
                k = rng.choice(by_type[rng.choice(sorted(by_type))])
            agents[env.acting_player_position].action = list(legal[k])
            env.step()
            game.step_id(int(obs["action_ids"][k]))
    return out


def douzero_features(hands, repeats, calls):
    """Per-decision µs of ddz's get_obs (lists and tuples) and DouZero's; prints the comparison."""
    from douzero.env.env import get_obs as dz_get_obs

    from ddz.envs.douzero import get_obs
    decisions = douzero_decisions(hands)
    sizes = np.array([len(get_obs(g)["legal_actions"]) for g, _ in decisions])
    times = np.zeros((4, repeats, len(decisions)))     # ddz lists, ddz tuples, DouZero, ddz cold
    clock = time.perf_counter
    for r in range(repeats):
        for i, (g, info) in enumerate(decisions):
            fresh = g.clone()                 # no legal moves cached yet
            t0 = clock()
            get_obs(fresh)
            times[3, r, i] = clock() - t0
            t0 = clock()
            for _ in range(calls):
                get_obs(g)
            t1 = clock()
            for _ in range(calls):
                get_obs(g, False)
            t2 = clock()
            for _ in range(3):
                dz_get_obs(info)
            t3 = clock()
            times[:3, r, i] = (t1 - t0) / calls, (t2 - t1) / calls, (t3 - t2) / 3
    ours, tuples, theirs, cold = np.median(times, axis=1) * 1e6
    print(f"\nDouZero features: {len(decisions)} decisions of {hands} hands, legal actions per decision: "
          f"median {np.median(sizes):.0f}, mean {sizes.mean():.1f}, max {sizes.max()}, "
          f"{int((sizes >= 50).sum())} with >= 50; {repeats} runs, per-decision medians, µs")
    print(f"{'decisions':27} {'n':>5} {'DouZero':>8} {'ddz':>7} {'ratio':>7} {'(median)':>9} "
          f"{'ddz tuples':>11} {'ratio':>7} {'(median)':>9} {'ddz cold':>9} {'ratio':>7}")
    for name, sel in (("all: the median decision", sizes >= 0), (">= 50 legal actions", sizes >= 50),
                      ("< 50 legal actions", sizes < 50), ("1 legal action", sizes == 1)):
        if not sel.any():
            continue
        b, a, t, f = (float(np.median(x[sel])) for x in (theirs, ours, tuples, cold))
        print(f"{name:27} {int(sel.sum()):5d} {b:8.1f} {a:7.3f} {b / a:6.1f}x "
              f"{float(np.median(theirs[sel] / ours[sel])):8.1f}x {t:11.3f} {b / t:6.1f}x "
              f"{float(np.median(theirs[sel] / tuples[sel])):8.1f}x {f:9.3f} {b / f:6.1f}x")
    for games in (64, 1024):
        douzero_vector(games, repeats, float(np.median(theirs)))


def douzero_vector(games, repeats, dz_median=None):
    """get_obs_vector on a CVectorGame of ``games`` DouZero games after 20 random steps."""
    from ddz.envs import CVectorGame
    from ddz.envs.douzero import DOUZERO_RULES, get_obs_vector
    vg = CVectorGame(games, DOUZERO_RULES, seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        ids, off = vg.legal_ids()
        vg.step(ids[off[:-1] + (rng.random(games) * np.diff(off)).astype(np.int64)])
    o = get_obs_vector(vg)
    playing = int((o["position"] >= 0).sum())
    rows = int(o["offsets"][-1])
    for reuse in (False, True):
        times = []
        get_obs_vector(vg, reuse)
        calls = max(10, 10240 // games)
        for _ in range(repeats):
            t = time.perf_counter()
            for _ in range(calls):
                get_obs_vector(vg, reuse)
            times.append((time.perf_counter() - t) / calls)
        t = float(np.median(times)) * 1e6
        print(f"get_obs_vector(reuse={reuse}), {games} games ({playing} in the play phase, {rows} rows): "
              f"{t:.0f} µs per call, {t / playing:.3f} µs per game in play, {t / rows * 1e3:.0f} ns per row"
              + (f"; DouZero's median decision / this per game: {dz_median / (t / playing):.0f}x" if dz_median else ""))


def take_turns(rows, repeats):
    """Run every ``(name, fn)`` once to warm up, then ``repeats`` times taking turns (so a
    change of load hits them alike): ``(times per name, median per name)``."""
    times = {name: [] for name, _ in rows}
    for _, fn in rows:
        fn()
    for _ in range(repeats):
        for name, fn in rows:
            times[name].append(fn())
    return times, {name: float(np.median(t)) for name, t in times.items()}


RULE_SETS = [("default", ddz.STANDARD), ("bottom_bonus", ddz.Rules(bottom_bonus=True)),
             ("face_up", ddz.Rules(first_bidder="face_up")),
             ("until_passes", ddz.Rules(bid_rounds="until_passes")), ("rob", ddz.Rules(bidding="rob")),
             ("doubling", ddz.Rules(doubling=True)), ("profile rlcard", ddz.Rules.profile("rlcard")),
             ("profile douzero", ddz.Rules.profile("douzero")), ("profile openspiel", ddz.Rules.profile("openspiel")),
             ("four_player", ddz.Rules.four_player())]


def rule_sets(games, steps, repeats):
    """Issue 29: ``VectorGame`` (C, observations on, numpy choice) per decision under each
    rule set, against the default rules in the same run; and ``PyVectorGame`` (64 games)
    under ``Rules.four_player()``, the path the four-player game took before the hand was
    in C."""
    rows = [(name, (lambda r: lambda: vector_game(games, steps, rules=r))(r)) for name, r in RULE_SETS]
    rows.append(("four_player, PyVectorGame (64 games)",
                 lambda: vector_game(64, 20, PyVectorGame, rules=ddz.Rules.four_player())))
    times, med = take_turns(rows, repeats)
    base = med["default"]
    print(f"VectorGame by rule set ({games} games, {steps} steps, observations on; medians of {repeats} runs)")
    print(f"{'rules':40} {'µs/decision':>12} {'(min..max)':>16} {'x default':>10}")
    for name, _ in rows:
        t = times[name]
        print(f"{name:40} {med[name] * 1e6:12.3f} {f'({min(t) * 1e6:.2f}..{max(t) * 1e6:.2f})':>16} "
              f"{med[name] / base:10.2f}")
    four, py4 = med["four_player"], med["four_player, PyVectorGame (64 games)"]
    print(f"four_player: C {py4 / four:.0f}x faster than PyVectorGame")


def gym_vector(games, steps, repeats):
    """Issue 31: Gymnasium's vector API. µs per env step (one agent decision, the bots'
    moves in between included), the step call alone timed (the harness's choice of a
    legal action from the mask is not): ``make_vec(..., "vector_entry_point")`` (C) and
    ``make_vec(..., "sync")`` (``SyncVectorEnv`` of the single env, 64 envs) against
    ``VectorGame.step`` (every seat, no bots), medians of ``repeats`` runs."""
    import gymnasium
    import ddz.envs  # noqa: F401  (registers the env)

    def run_env(mode, n):
        env = gymnasium.make_vec("ddz/DouDizhu-v0", num_envs=n, vectorization_mode=mode)
        obs, _ = env.reset(seed=0)
        rng = np.random.default_rng(0)
        spent = 0.0
        for _ in range(steps):
            mask = obs["action_mask"]
            counts = mask.sum(1)
            rows, cols = np.nonzero(mask)
            first = np.concatenate([[0], np.cumsum(counts)[:-1]])
            pick = first + (rng.random(n) * np.maximum(counts, 1)).astype(np.int64)
            actions = np.where(counts > 0, cols[np.minimum(pick, len(cols) - 1)], 0)
            t = time.perf_counter()
            obs, *_ = env.step(actions)
            spent += time.perf_counter() - t
        env.close()
        return spent / (n * steps)

    def run_raw(n):
        vg = CVectorGame(n, seed=0)
        rng = np.random.default_rng(0)
        spent = 0.0
        for _ in range(steps):
            ids, offsets = vg.legal_ids()
            a = ids[offsets[:-1] + (rng.random(n) * np.diff(offsets)).astype(np.int64)].astype(np.int32)
            t = time.perf_counter()
            vg.step(a)
            spent += time.perf_counter() - t
        return spent / (n * steps)

    rows = [(f"make_vec vector_entry_point ({games} envs)", lambda: run_env("vector_entry_point", games)),
            (f"VectorGame.step ({games} games)", lambda: run_raw(games)),
            ("make_vec sync (64 envs)", lambda: run_env("sync", 64))]
    times, med = take_turns(rows, repeats)
    print(f"Gymnasium vector API ({steps} steps; µs per env step, the step call alone; medians of {repeats} runs)")
    for name, _ in rows:
        t = times[name]
        print(f"{name:44} {med[name] * 1e6:10.3f} {f'({min(t) * 1e6:.2f}..{max(t) * 1e6:.2f})':>18}")
    fast, raw, sync = (med[name] for name, _ in rows)
    print(f"vector env / VectorGame.step: {fast / raw:.2f}x (an env step is one agent decision plus the bots' "
          f"moves); SyncVectorEnv / vector env: {sync / fast:.0f}x")


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
    ap.add_argument("--only", choices=("envs", "douzero", "rules", "gym", "threads"))
    ap.add_argument("--busy", action="store_true",
                    help="--only threads: a single-threaded busy loop in another process, started "
                         "before both runs (issue 40 item 6: a core taken)")
    ap.add_argument("--dz-hands", type=int, default=100)
    ap.add_argument("--dz-calls", type=int, default=20)
    args = ap.parse_args(argv)
    if args.only == "threads":
        print(f"ddz {ddz.__version__} ({ddz.IMPLEMENTATION}); {load()} at the start"
              + ("; a busy loop in another process" if args.busy else ""))
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy else None
        try:
            time.sleep(0.5 if busy else 0)
            threads_ratio(args.games, max(args.steps, 200), args.repeats)
        finally:
            if busy is not None:
                busy.kill()
                busy.wait()
        print(f"{load()} at the end")
        return
    if args.only == "gym":
        print(f"ddz {ddz.__version__} ({ddz.IMPLEMENTATION}); {load()} at the start")
        gym_vector(args.games, args.steps, args.repeats)
        print(f"{load()} at the end")
        return
    if args.only == "rules":
        print(f"ddz {ddz.__version__} ({ddz.IMPLEMENTATION}); {load()} at the start")
        rule_sets(args.games, args.steps, args.repeats)
        print(f"{load()} at the end")
        return
    if args.only == "douzero":
        print(f"ddz {ddz.__version__} ({ddz.IMPLEMENTATION}); {load()} at the start")
        douzero_features(args.dz_hands, args.repeats, args.dz_calls)
        print(f"{load()} at the end")
        return
    g, steps, d = args.games, args.steps, args.decisions
    rows = [(f"VectorGame C ({g} games, numpy choice)", lambda: vector_game(g, steps)),
            ("VectorGame C, observe=False", lambda: vector_game(g, steps, observe=False)),
            (f"VectorGame C, threads=0 ({os.cpu_count()} cores)", lambda: vector_game(g, steps, threads=0)),
            ("VectorGame C (64 games)", lambda: vector_game(64, steps * 16)),
            ("VectorGame C, obs_dtype=uint8", lambda: vector_game(g, steps, dtype=np.uint8)),
            ("VectorGame C (64 games), pre-drawn, uint8", lambda: vector_replay(64, steps * 16, np.uint8)),
            ("VectorGame C, uint8, threads=0", lambda: vector_game(g, steps, dtype=np.uint8, threads=0)),
            ("VectorGame C, packed", lambda: vector_game(g, steps, dtype="packed")),
            ("VectorGame C, packed, threads=0", lambda: vector_game(g, steps, dtype="packed", threads=0)),
            ("VectorGame C, pre-drawn, packed", lambda: vector_replay(g, steps * 4, "packed")),
            ("VectorGame C, pre-drawn, packed, threads=0", lambda: vector_replay(g, steps * 4, "packed", 0)),
            ("VectorGame C (64 games), pre-drawn, packed", lambda: vector_replay(64, steps * 16, "packed")),
            ("VectorGame.play (C random policy)", lambda: vector_play(g, steps)),
            ("VectorGame.play, threads=0", lambda: vector_play(g, steps, 0)),
            ("PyVectorGame (64 games)", lambda: vector_game(64, max(1, d // 640), PyVectorGame)),
            ("PettingZoo raw_env", lambda: pettingzoo_env(d // 4)),
            ("Gymnasium DouDizhuEnv", lambda: gymnasium_env(d // 4)),
            ("OpenSpiel dou_dizhu", lambda: openspiel(d)),
            ("RLCard doudizhu env", lambda: rlcard_env(d // 4)),
            ("a hand's start (reset(), per game)", lambda: hand_start(g))]
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
    vec, blind, threaded, small, compact, small_u8, compact_t, packed, packed_t, pre_p, pre_pt, small_p, play, play_t = (
        rows[k][0] for k in range(14))
    for base in ("OpenSpiel dou_dizhu", "RLCard doudizhu env"):
        if base in med:
            print(f"{base}: VectorGame {med[base] / med[vec]:.1f}x faster, observe=False "
                  f"{med[base] / med[blind]:.1f}x, threads=0 {med[base] / med[threaded]:.1f}x, "
                  f"64 games {med[base] / med[small]:.1f}x ({med[base] / med[small_u8]:.1f}x pre-drawn, uint8), "
                  f"uint8 {med[base] / med[compact]:.1f}x, uint8 on every "
                  f"core {med[base] / med[compact_t]:.1f}x, VectorGame.play {med[base] / med[play]:.1f}x "
                  f"({med[base] / med[play_t]:.1f}x on every core); packed {med[base] / med[packed]:.1f}x "
                  f"({med[base] / med[packed_t]:.1f}x on every core), pre-drawn packed {med[base] / med[pre_p]:.1f}x "
                  f"({med[base] / med[pre_pt]:.1f}x on every core), 64 games pre-drawn packed "
                  f"{med[base] / med[small_p]:.1f}x")
    print(f"threads=0 / one thread: step {med[vec] / med[threaded]:.2f}x, uint8 {med[compact] / med[compact_t]:.2f}x, "
          f"packed {med[packed] / med[packed_t]:.2f}x, pre-drawn packed {med[pre_p] / med[pre_pt]:.2f}x, "
          f"play {med[play] / med[play_t]:.2f}x")
    start = rows[-1][0]
    print(f"a hand's start: {med[start] * 1e6:.3f} us = {med[start] / med[vec]:.2f} decisions with observations, "
          f"{med[start] / med[compact]:.2f} with uint8 ones, {med[start] / med[pre_p]:.2f} of a pre-drawn packed one, "
          f"{med[start] / med[blind]:.2f} without")
    if "RLCard doudizhu env" in med and "PettingZoo raw_env" in med:
        print(f"PettingZoo step {med['RLCard doudizhu env'] / med['PettingZoo raw_env']:.1f}x faster than RLCard's")
    if args.only is None:
        try:
            douzero_features(args.dz_hands, args.repeats, args.dz_calls)
        except ImportError as exc:
            print(f"DouZero features skipped ({exc.name} not installed)")
    print(f"{load()} at the end")


if __name__ == "__main__":
    main()
