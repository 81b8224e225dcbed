"""The compiled endgame search's shortcuts (issue 12) against the core's move generator:
its cheap forced-pass and go-out tests and its packed play counts. A forced pass it
claims wrongly would make the solver wrong, so every claim is checked against the full
move list. Compiled only (listed in conftest's ``collect_ignore`` under
``DDZ_NO_EXTENSIONS=1``); the solver's answers are compared with the reference minimax
in test_solver.py in both legs."""

import os

import numpy as np
import pytest

import ddz
from ddz import Position
from conftest import CARDS, RULE_IDS, RULESETS


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_search_cheap_tests_against_the_move_generator(rules):
    """The search's shortcuts against the full move list: a forced pass only when just the
    pass answers; going out at once exactly when the whole hand is one legal play; the
    packed play counts equal the core's."""
    from ddz.search import _solver
    s = _solver.Searcher(1)
    s.reset(rules, 2, 0, False)
    plays = ddz.all_plays(rules)
    for p in plays:
        a, b, _, _ = _solver._packed(p.code, [0] * 15)
        assert a == b == sum(c << (4 * r) for r, c in enumerate(p.counts)), str(p)
    rng = np.random.default_rng(31)
    forced = outs = 0
    for _ in range(1500):
        k = int(rng.integers(1, 13 if rng.random() < 0.5 else 5))
        hand = np.bincount(rng.permutation(CARDS)[:k], minlength=15).tolist()
        beat = None if rng.random() < 0.3 else plays[int(rng.integers(len(plays)))]
        code = beat.code if beat is not None else 0
        moves = ddz.legal_moves(hand, beat, rules) if beat is None or all(
            h + c <= lim for h, c, lim in zip(hand, beat.counts, [4] * 13 + [1, 1])) else None
        if moves is None:
            continue
        other = [0] * 15
        other[next(r for r in range(15) if hand[r] < (4 if r < 13 else 1))] = 1
        f, g = s.cheap_tests([hand, other], 0, code)
        if f:
            forced += 1
            assert moves == [ddz.PASS], (hand, str(beat))
        one_play = any(sum(m.counts) == k for m in moves if m)
        assert bool(g) == one_play, (hand, str(beat))
        outs += bool(g)
    assert forced > 50 and outs > 50


def _searcher_solve(s, pos, features, all_moves):
    s.reset(pos.rules, len(pos.hands), pos.landlord, False, 0, features)
    tb = pos.to_beat
    return s.solve(pos.hands, pos.to_move, 0 if tb is None else tb.code,
                   -1 if pos.last_player is None else pos.last_player, 0, False, all_moves, None, 0.0)


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_proof_number_search_gives_the_alpha_beta_answer(rules):
    """Win mode by df-pn (FEAT_DFPN, with and without its options) against alpha-beta:
    the same value, reported moves and principal variation on random two- and
    three-player positions of up to 20 cards (any seat to move, after a play too), and
    the reference minimax's value and winning moves on small ones."""
    from ddz.search import _solver
    from ddz.search.reference_solver import ref_solve
    s = _solver.Searcher(8)
    rng = np.random.default_rng(4141 + (rules is RULESETS[1]))
    variants = (3 | 4, 3 | 4 | 8 | 16 | 32, 1 | 4)
    checked = 0
    for i in range(90):
        seats = 2 if i % 5 == 0 else 3
        total = int(rng.integers(seats + 1, 21 if i % 3 else 11))
        while True:
            cuts = sorted(rng.choice(np.arange(1, total), size=seats - 1, replace=False).tolist())
            parts = np.split(rng.permutation(CARDS)[:total], cuts)
            if max(len(x) for x in parts) <= 20:
                break
        hands = [np.bincount(x, minlength=15).tolist() for x in parts]
        pos = ddz.Position(hands, landlord=int(rng.integers(seats)), to_move=int(rng.integers(seats)),
                           rules=rules)
        moves = [m for m in pos.legal_moves() if m]
        if i % 2 and moves:                    # a position with a play to beat
            m = moves[int(rng.integers(len(moves)))]
            if sum(m.counts) < pos.cards_left[pos.to_move]:
                pos = pos.after(m)
        all_moves = i % 4 == 0
        want = _searcher_solve(s, pos, 3, all_moves)
        for f in variants:
            assert _searcher_solve(s, pos, f, all_moves) == want, (str(pos), f)
        if total <= 9:
            ref = ref_solve(pos.hands, pos.landlord, pos.to_move, pos.to_beat, pos.last_player, rules)
            value, exact, codes, _ = _searcher_solve(s, pos, 3 | 4, True)
            assert exact and value == ref.value, str(pos)
            mover_wins = (value > 0) == (pos.to_move == pos.landlord)
            assert codes and sorted(codes) == sorted(p.code for p in ref.best) if mover_wins else codes == [], str(pos)
            checked += 1
    assert checked >= 10


def _rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_table_grows_within_its_share_of_memory(monkeypatch):
    """Issue 41 item 3: a search doubles the table's entries in use as its positions
    pass them, but past the free size only while the doubling fits in the memory the
    system can give divided by twice DDZ_SOLVING_PROCESSES; the answer is the same
    either way; the pages past the kept size go back to the kernel at the next search."""
    from ddz.search import _solver
    pos = Position(["445689TQK2", "3569TJJ", "3578A2R"])      # ~320,000 positions
    tiny = Position(["3", "4", "5"])
    old = _solver._memory_rule(1 << 14, 1 << 14)
    try:
        s = _solver.Searcher(64)
        monkeypatch.delenv("DDZ_SOLVING_PROCESSES", raising=False)
        want = _searcher_solve(s, pos, 259, True)
        grown = s.entries_in_use
        assert grown >= 1 << 18 and want[1]              # 16 MiB or more, exact
        touched = _rss_bytes()
        s.release()                                       # after a search: the pages go back
        assert touched - _rss_bytes() > (grown - (1 << 14)) * 64 // 2
        assert s.entries_in_use == 1 << 14
        _searcher_solve(s, pos, 259, True)
        touched = _rss_bytes()
        _searcher_solve(s, tiny, 259, False)              # or at the next search
        assert touched - _rss_bytes() > (grown - (1 << 14)) * 64 // 2
        sol = ddz.solve(pos)                              # ddz.solve releases them itself
        assert sol.exact and ddz.search.solver._local.searcher[1].entries_in_use == 1 << 14
        for count in ("1000000000000", "999999999999", "00000001000000000000"):   # leading zeros: as int()
            monkeypatch.setenv("DDZ_SOLVING_PROCESSES", count)   # no share left to grow into
            assert _searcher_solve(s, pos, 259, True) == want
            assert s.entries_in_use == 1 << 14
        for count in ("0", "-3", "many", "1e3", "10000000000000"):  # not a count (set after import): one
            monkeypatch.setenv("DDZ_SOLVING_PROCESSES", count)
            assert _searcher_solve(s, pos, 259, True) == want
            assert s.entries_in_use == grown
    finally:
        _solver._memory_rule(*old)


def test_default_table_is_halved_until_it_maps(monkeypatch):
    """The default cap is mapped whatever the memory: a refusal halves it (down to 64
    MiB); another size refused is a TableMemoryError."""
    from ddz.search import _solver, solver
    real = _solver.Searcher
    sizes = []

    def refusing(mb):
        sizes.append(mb)
        if mb > 512:
            raise MemoryError("refused")
        return real(mb)

    monkeypatch.setattr(solver._local, "searcher", None, raising=False)
    monkeypatch.setattr(_solver, "Searcher", refusing)
    sol = solver.solve(Position(["KK5543", "225543"]))
    big = solver.DEFAULT_TABLE_MB
    assert sol.exact and sol.win and sizes == [big / 2 ** k for k in range(big.bit_length() - 9)]
    assert solver._local.searcher[1].entries == 512 * 2 ** 20 // 64
    with pytest.raises(ddz.TableMemoryError, match="choose a smaller table_mb"):
        solver.solve(Position(["KK5543", "225543"]), table_mb=1000)
    solver._local.searcher = None


def test_solving_processes_sets_the_shared_count(monkeypatch):
    from ddz.core import parallel
    monkeypatch.delenv(parallel.SOLVING_PROCESSES_ENV, raising=False)
    parallel.solving_processes(3)
    assert os.environ[parallel.SOLVING_PROCESSES_ENV] == "3"
    ddz.solving_processes(np.int64(2))
    assert os.environ[parallel.SOLVING_PROCESSES_ENV] == "2"
    for bad in (0, -1, True, 1.5, "3", None, np.array([3]), 10 ** 12 + 1):
        with pytest.raises(ddz.DdzError, match="solving_processes takes an int from 1 to"):
            ddz.solving_processes(bad)
    assert os.environ[parallel.SOLVING_PROCESSES_ENV] == "2"


def test_solve_from_inside_a_running_solve():
    """A ``cancel`` (or ``progress``) callback that calls ddz.solve in the same thread gets
    a searcher of its own: the same answers, the outer search undisturbed."""
    pos = Position(["445689TQK2", "3569TJJ", "3578A2R"])
    inner = []

    class Nested:
        def is_set(self):
            if len(inner) < 2:
                inner.append(ddz.solve(Position(["KK5543", "225543"])))
            return False

    outer = ddz.solve(pos, cancel=Nested(), all_moves=True)
    alone = ddz.solve(pos, all_moves=True)
    assert len(inner) == 2 and all(s.exact and s.win for s in inner)
    assert (outer.exact, outer.win, outer.moves, outer.pv) == (alone.exact, alone.win, alone.moves, alone.pv)


@pytest.mark.parametrize("value", ["1e3", "abc", "0", "-5", " 4", "1_000", str(10 ** 13)])
def test_a_bad_solving_processes_variable_is_an_error_at_import(value):
    import subprocess
    import sys
    env = dict(os.environ, DDZ_SOLVING_PROCESSES=value)
    r = subprocess.run([sys.executable, "-c", "import ddz"], env=env, capture_output=True, text=True)
    assert r.returncode == 1 and "DdzError: DDZ_SOLVING_PROCESSES must be a count of processes" in r.stderr
    r = subprocess.run([sys.executable, "-m", "ddz", "--version"], env=env, capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("ddz: error: DDZ_SOLVING_PROCESSES must be") \
        and "Traceback" not in r.stderr


def test_numpy_numbers_are_limits_and_a_mapping_is_no_batch():
    """time_limit takes any real number (numpy's float32 and int64 included: they are
    numbers), as node_limit and table_mb do; solve_batch refuses a mapping (its keys or
    its values? neither: a DdzError) as it refuses a string."""
    pos = ddz.Position(["KK5543", "225543"])
    want = ddz.solve(pos)
    for limit in (np.int64(5), np.int32(5), np.float32(5.0), np.float64(5.0)):
        sol = ddz.solve(pos, time_limit=limit, table_mb=np.float16(8))
        assert sol.exact and sol.moves == want.moves
    assert ddz.solve_batch([pos], time_limit=np.int64(5))[0].moves == want.moves
    for bad in ({pos: 1}, {0: pos}):
        with pytest.raises(ddz.DdzError, match="solve_batch.. takes a sequence of ddz.Position"):
            ddz.solve_batch(bad)
