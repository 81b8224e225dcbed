"""Perft (DESIGN.md): node counts of the play-phase legal-move tree, pinned in
tests/perft/*.txt (computed with the reference; see tests/perft/generate.py) and checked
here with whichever implementation ddz.core chose. Deeper counts run in bench/."""

import glob
import os

import numpy as np
import pytest

import ddz
from ddz import DdzError, Game, IllegalActionError, Rules, divide, perft

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE_BUDGET = 10_000   # nodes per count in the test suite; bench/bench_perft.py runs all


def load_perft_file(path):
    """[(name, game, [(depth, nodes), ...])] of one perft data file."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = dict(part.split("=", 1) for part in line.split("; ") if "=" in part)
            counts = [tuple(int(x) for x in part[1:].split()) for part in line.split("; ")
                      if part.startswith("D")]
            rules = Rules(kickers=fields["kickers"], players=int(fields.get("players", 3)))
            game = Game(rules, deal=tuple(fields["deal"].split("/")), first_bidder=int(fields["landlord"]))
            game.step(3)
            if game.phase == "opening":
                game.step(False)
            for play in filter(None, fields["plays"].split(",")):
                game.step(play)
            out.append((f"{os.path.basename(path)}:{n}", game, counts))
    return out


CASES = [case for path in sorted(glob.glob(os.path.join(HERE, "..", "perft", "*.txt")))
         for case in load_perft_file(path)]


def test_data_files_exist():
    assert len(CASES) >= 10
    assert all(depths for _, _, depths in CASES)


@pytest.mark.parametrize("name, game, counts", CASES, ids=[c[0] for c in CASES])
def test_perft_counts(name, game, counts):
    checked = 0
    for depth, nodes in counts:
        if nodes > SUITE_BUDGET:
            break
        got = perft(game, depth)
        if got != nodes:
            detail = "\n".join(f"  {p}: {c}" for p, c in divide(game, depth))
            pytest.fail(f"{name} depth {depth}: {got} nodes, expected {nodes} "
                        f"({ddz.IMPLEMENTATION}); divide:\n{detail}")
        checked += 1
    assert checked >= 1


def test_divide_sums_to_perft_and_leaves_the_game_alone():
    _, game, _ = CASES[0]
    before = game.to_record()
    rows = divide(game, 3)
    assert [p for p, _ in rows] == game.legal_actions()
    assert sum(c for _, c in rows) == perft(game, 3)
    assert all(c == 1 for _, c in divide(game, 1))
    assert game.to_record() == before


def test_perft_depth_zero_and_finished_games():
    _, game, _ = CASES[0]
    assert perft(game, 0) == 1
    g = Game(deal=("3456789TJJJJKKKKB", "33344455566677788", "8999TTTQQQAAA2222", "QAR"),
             first_bidder=0)
    g.step(3)
    for play in ("3456789T", "Q", "A", "JJJJ", "KKKK"):
        for a in (play, "pass", "pass"):
            g.step(a)
    assert perft(g, 1) == 3          # B, R or BR
    assert perft(g, 2) == 2          # BR ends the hand: that line has no leaf at depth 2
    g.step("BR")
    assert perft(g, 0) == 1 and perft(g, 1) == 0


def test_perft_matches_naive_search_with_step():
    _, game, _ = CASES[1]

    def naive(g, depth):
        if depth == 0:
            return 1
        total = 0
        for a in g.legal_actions():
            c = g.clone()
            c.step(a)
            total += naive(c, depth - 1)
        return total

    assert naive(game, 3) == perft(game, 3)


def test_perft_bad_arguments():
    _, game, _ = CASES[0]
    with pytest.raises(DdzError):
        perft(game, -1)
    with pytest.raises(DdzError):
        perft(game, "2")
    with pytest.raises(DdzError):
        perft("game", 1)
    with pytest.raises(DdzError):
        divide(game, 0)
    with pytest.raises(IllegalActionError, match="bidding"):
        perft(Game(seed=1), 1)
    for bad in (1.0, True, np.bool_(True), None):
        with pytest.raises(DdzError, match="depth"):
            perft(game, bad)


def test_perft_accepts_numpy_integer_depths():
    _, game, _ = CASES[0]
    assert perft(game, np.int64(2)) == perft(game, 2)
    assert sum(n for _, n in divide(game, np.uint8(2))) == perft(game, 2)


def test_perft_is_the_function_and_movetree_the_module():
    """``ddz.perft`` used to be both a module and the function that shadowed it."""
    import importlib

    import ddz.game.perft
    assert callable(ddz.perft) and ddz.perft is ddz.game.perft.perft
    assert ddz.divide is ddz.game.perft.divide
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("ddz.perft")
