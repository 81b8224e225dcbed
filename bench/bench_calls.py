"""Per-call cost of the public API, and per-decision cost of whole hands (issue "Every
speed fast"), side by side with the kernel and OpenSpiel in one run.

Run from the repository root (after building or installing ddz)::

    python bench/bench_calls.py [--runs 7] [--hands 200]

Part 1: µs per call on the fixed positions of ``positions.py`` (``kickers="repeat"``),
median of the runs, each run looping over every position. Part 2: µs per decision of
whole hands from a seeded deal to the end, uniformly random legal actions (the highest
bid, so every hand is played), deal included; OpenSpiel's chance nodes are applied on its
side. Ratios are against ``legal_moves_array(uint8, Play)`` (part 1) and OpenSpiel (part 2).
Times are this thread's CPU time (``--clock cpu``, the default) or wall clock (``--clock wall``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import ddz  # noqa: E402
import positions  # noqa: E402

R = positions.RULES
#: ``time.thread_time`` (``--clock cpu``, the default: CPU time, less disturbed by other
#: jobs on a shared machine) or ``time.perf_counter`` (``--clock wall``)
CLOCK = time.thread_time


def per_call(fn, args_list, runs):
    """Median over ``runs`` of µs per call of ``fn(*args)`` over ``args_list``."""
    out = []
    for _ in range(runs):
        t0 = CLOCK()
        for args in args_list:
            fn(*args)
        out.append((CLOCK() - t0) / len(args_list) * 1e6)
    return statistics.median(out)


def part1(runs):
    ps = positions.POSITIONS
    space = ddz.ActionSpace(R)
    table = ddz.core.tables.table(R)
    u8 = [(p.hand, p.to_beat) for p in ps]
    text = [(ddz.format_cards(p.hand), None if p.to_beat is None else str(p.to_beat)) for p in ps]
    ids = [(p.hand, 0 if p.to_beat is None else space.id(p.to_beat)) for p in ps]
    plays = [str(p) for p in ddz.all_plays(R)[::7]]
    cards = [ddz.format_cards(ddz.Play.parse(s, R).counts) for s in plays]
    pairs = [("3333", "444456"), ("2222", "3333"), ("45678", "34567"), ("BR", "AAAA")]
    d = {s: 1 for s in plays}
    # responding positions whose play to beat, written as its plain cards in an order a
    # user might type (high to low), names the same play: canonical text, plain text, Play
    resp = [p for p in ps if p.to_beat is not None and _parsed(ddz.format_cards(p.to_beat.counts)[::-1]) == p.to_beat]
    canon = [(ddz.format_cards(p.hand), str(p.to_beat)) for p in resp]
    plain = [(ddz.format_cards(p.hand), ddz.format_cards(p.to_beat.counts)[::-1]) for p in resp]
    as_play = [(ddz.format_cards(p.hand), p.to_beat) for p in resp]
    kicked = [s for s in plays if "+" in s]                    # canonical text with '+'
    kicked_plain = [ddz.format_cards(ddz.Play.parse(s, R).counts) for s in kicked]
    rows = [
        ("kernel (batch, per position)", lambda: None, None),
        ("legal_moves_array(uint8, Play)", lambda h, b: ddz.legal_moves_array(h, b, R), u8),
        ("legal_moves(uint8, Play)", lambda h, b: ddz.legal_moves(h, b, R), u8),
        ("legal_moves(str, str)", lambda h, b: ddz.legal_moves(h, b, R), text),
        ("legal_moves(str, Play), responding", lambda h, b: ddz.legal_moves(h, b, R), as_play),
        ("legal_moves(str, canonical str), responding", lambda h, b: ddz.legal_moves(h, b, R), canon),
        ("legal_moves(str, plain str), responding", lambda h, b: ddz.legal_moves(h, b, R), plain),
        ("ActionSpace.legal_ids(uint8, id)", space.legal_ids, ids),
        ("ActionSpace.legal_mask(uint8, id)", space.legal_mask, ids),
        ("Play.parse(canonical)", lambda s: ddz.Play.parse(s, R), [(s,) for s in plays]),
        ("dict lookup", d.get, [(s,) for s in plays]),
        ("classify(str)", lambda s: ddz.classify(s, R), [(s,) for s in cards]),
        ("classify(body+kickers str)", lambda s: ddz.classify(s, R), [(s,) for s in kicked]),
        ("classify(plain str), same plays", lambda s: ddz.classify(s, R), [(s,) for s in kicked_plain]),
        ("beats(str, str)", lambda a, b: ddz.beats(a, b, R), pairs * 50),
    ]
    hands = np.array([p.hand for p in ps], np.uint8)
    codes = np.array([0 if p.to_beat is None else p.to_beat.code for p in ps], np.int64)
    res = {}
    for name, fn, args in rows:
        if args is None:
            res[name] = statistics.median(
                _timed(lambda: table.legal_codes_batch(hands, codes)) for _ in range(runs)) / len(ps)
        else:
            res[name] = per_call(fn, args, runs)
    base = res["legal_moves_array(uint8, Play)"]
    print(f"ddz {ddz.__version__} ({ddz.IMPLEMENTATION}), {len(ps)} positions, median of {runs} runs")
    print(f"{'call':44s} {'µs':>9s} {'/ array':>9s}")
    for name, v in res.items():
        print(f"{name:44s} {v:9.3f} {v / base:8.2f}x")
    print(f"Play.parse / dict lookup: {res['Play.parse(canonical)'] / res['dict lookup']:.1f}x")
    print(f"play to beat as plain text / canonical text: "
          f"{res['legal_moves(str, plain str), responding'] / res['legal_moves(str, canonical str), responding']:.2f}x "
          f"({len(resp)} responding positions)")
    print(f"classify body+kickers / plain: "
          f"{res['classify(body+kickers str)'] / res['classify(plain str), same plays']:.2f}x ({len(kicked)} plays)")


def _parsed(text):
    """The play ``text`` names under ``R``, or None (several readings, or 'RJ' read as a
    joker name)."""
    try:
        return ddz.Play.parse(text, R)
    except ddz.DdzError:
        return None


def _timed(fn):
    t0 = CLOCK()
    fn()
    return (CLOCK() - t0) * 1e6


def hand_ids(seed):
    rng = random.Random(seed)
    g = ddz.Game(R, seed=seed)
    n = 0
    while g.result is None:
        if g.phase is not ddz.Phase.PLAYING:
            g.step(g.legal_actions()[-1])
        else:
            ids = g.legal_action_ids()
            g.step_id(int(ids[rng.randrange(len(ids))]))
        n += 1
    return n


def hand_plays(seed):
    rng = random.Random(seed)
    g = ddz.Game(R, seed=seed)
    n = 0
    while g.result is None:
        legal = g.legal_actions()
        g.step(legal[rng.randrange(len(legal))] if g.phase is ddz.Phase.PLAYING else legal[-1])
        n += 1
    return n


def hand_floor(seed, _ids=np.arange(1, 30, dtype=np.int32)):
    """The harness alone: the loop, the random draw and the id indexing of ``hand_ids``
    with no game behind them, for 62 decisions (a typical random hand)."""
    rng = random.Random(seed)
    ids = _ids
    n = 0
    while n < 62:
        int(ids[rng.randrange(len(ids))])
        n += 1
    return n


def hand_openspiel(seed, _game=[]):
    import pyspiel
    if not _game:
        _game.append(pyspiel.load_game("dou_dizhu"))
    rng = random.Random(seed)
    s = _game[0].new_initial_state()
    n = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
        n += 1
    return n


def part2(runs, hands):
    loops = [("ddz legal_action_ids + step_id", hand_ids), ("ddz legal_actions + step(Play)", hand_plays),
             ("OpenSpiel legal_actions + apply_action", hand_openspiel),
             ("harness alone (draw + index, no game)", hand_floor)]
    res = {}
    for name, fn in loops:
        try:
            fn(0)
        except ImportError as exc:
            print(f"# {name}: not installed ({exc})")
            continue
        out = []
        for r in range(runs):
            t0 = CLOCK()
            n = sum(fn(10_000 * r + k) for k in range(hands))
            out.append((CLOCK() - t0) / n * 1e6)
        res[name] = statistics.median(out)
    print(f"\nwhole hands, {hands} per run, median of {runs} runs: µs per decision (deal included)")
    other = res.get("OpenSpiel legal_actions + apply_action")
    for name, v in res.items():
        print(f"{name:40s} {v:8.2f}" + ("" if other is None else f"   OpenSpiel / this: {other / v:.2f}x"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                    help="cpu: this thread's CPU time (default); wall: perf_counter")
    args = ap.parse_args(argv)
    global CLOCK
    CLOCK = time.thread_time if args.clock == "cpu" else time.perf_counter
    print(f"clock: {args.clock}")
    part1(args.runs)
    part2(args.runs, args.hands)


if __name__ == "__main__":
    main()
