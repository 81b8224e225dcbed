"""Shared fixtures and helpers of the test suite (one place for all of them).

* ``impl`` runs a test against each implementation of the rules by module name, so a
  broken compiled core cannot pass by quietly testing Python. The compiled one is
  ``ddz.core.compiled``; under ``DDZ_NO_EXTENSIONS=1`` (the pure-Python leg) it cannot be imported
  at all, so only the reference runs, and the files that exist to test the compiled
  modules are not collected (``collect_ignore``).
* The cross-check cannot vanish: tests marked ``crosscheck`` compare the core with the
  reference; when the whole suite runs on a compiled build, fewer than
  ``MIN_CROSSCHECKS`` passing ones (one skipped, deselected or lost) fail the run.
* Helpers: the deck (``DECK`` counts, ``CARDS`` ranks), the rule sets (``RULESETS``),
  position generators (``deal``, ``deals``, ``random_hands``, ``random_positions``,
  ``play_from``, ``small_hands``; for the engine profiles ``profile_positions``, which
  plants plays of the play to beat's shape and draws the profiles' special plays), the
  reference universe as arrays (``universe_arrays``), RLCard's player stand-in
  (``RLCardPlayer``), README extraction (``readme_code``), the CLI runner (``run_cli``),
  and hand-built deals and records for the game tests (``fill_deal``, ``record``).
* At the end of a run, the skipped tests grouped by file and reason (``skip_summary``),
  without ``-rs``: the browser tests skip where Chromium is missing.
"""

from __future__ import annotations

import collections
import functools
import importlib
import os
import pathlib
import random
import re
import signal

import numpy as np
import pytest

import ddz
from ddz import REPEAT_KICKERS, STANDARD
from ddz.core import reference
from ddz.core.cards import RANK_CHARS, deck_counts, parse_cards

from ddz.core.implementation import NO_EXTENSIONS  # noqa: E402 (the one reading of the switch)
IMPLS = ["reference"] if NO_EXTENSIONS else ["reference", "fast"]

#: files that test the compiled modules themselves: not collected in the pure-Python leg
collect_ignore = ["core/test_core_crosscheck.py", "test_kernel_safety.py", "test_kernel_regressions.py",
                  "core/test_core_tables.py",
                  "search/test_solver_search.py"] \
    if NO_EXTENSIONS else []

# A suite started as a background job (`cmd &` in a script, nohup) inherits SIGINT
# ignored, and every child it starts would too: a Python started with SIGINT ignored
# never raises KeyboardInterrupt, so the tests that send Ctrl-C to a child (a solve, the
# vector's play, selfplay, ddz serve) would wait for it in vain. A handler here is reset
# to the default in each child at exec, where Python installs its own again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

#: the fewest core-vs-reference tests a full run on a compiled build must pass (the
#: environment variable raises it, to see the guard fail)
MIN_CROSSCHECKS = int(os.environ.get("DDZ_MIN_CROSSCHECKS", 30))

DECK = deck_counts(1)                              # uint8[15]: copies of each rank
CARDS = np.repeat(np.arange(15), DECK)             # the 54 cards as ranks
RULESETS = [STANDARD, REPEAT_KICKERS]
RULE_IDS = ["distinct", "repeat"]
README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


# -- implementations ----------------------------------------------------------------

@pytest.fixture(params=IMPLS, ids=IMPLS)
def impl(request):
    """The module ``ddz.core.reference`` or ``ddz.core.compiled`` (same functions, same semantics)."""
    return importlib.import_module(f"ddz.{request.param}")


# -- the cross-check guard ------------------------------------------------------------

_CROSSCHECK = {"passed": 0, "other": []}


#: The subset of the wheel legs whose Python is marked "subset" in tools/pythons.txt
#: (``tools/test.py --wheel-leg``, the same under tools/build-wheels and cibuildwheel):
#: every test under these paths (relative to tests/) is marked ``wheel``, and
#: ``pytest -m "wheel and not slow"`` runs them. They are the tests of the compiled code
#: and of the layers over it (the rules core, the game, the solver, the environments, the
#: CLI, the other engines' cross-checks, the kernels' safety, what the package says about
#: itself); the web app, the arena, Ray, the README's examples and the typing check run in
#: the full legs only. A test elsewhere joins with ``@pytest.mark.wheel``.
WHEEL_SUBSET = ("core/", "game/", "search/", "envs/", "cli/", "interop/", "test_kernel_safety.py",
                "test_kernel_regressions.py", "test_errors.py", "test_packaging.py")
#: ... but for the heaviest randomised cross-checks (two thirds of the subset's time: 13 of
#: its 20 minutes on a busy machine), which run in the full legs; smaller checks of the
#: same compiled functions (every play classified, beats, the profiles' positions, the
#: vector game's threads and observations) stay in the subset.
WHEEL_SUBSET_HEAVY = (
    "envs/test_hand_lockstep.py::test_c_hand_steps_with_the_python_hand_on_every_flow_option",
    "core/test_core_crosscheck.py::test_legal_moves_random",
    "core/test_core_crosscheck.py::test_legal_moves_exhaustive_small_hands",
    "core/test_core_crosscheck.py::test_core_equals_reference_on_random_positions",
    "envs/test_douzero_obs.py::test_lockstep_with_douzero_gameenv",
    "core/test_engines.py::test_legal_moves_equal_",
)


#: The tests of a Linux serial wheel's leg (``"kernels"``, tools/pythons.py ``Python.leg``):
#: what differs between the OpenMP and the serial wheel of one Python, i.e. the two modules
#: built with OpenMP (the action table's batch kernels, the vector game and its threads) and
#: the kernels' safety and regressions. Every test in these files is marked ``kernels``;
#: they need pytest, hypothesis and gymnasium only (tools/pythons.py KERNELS_NEEDS; a
#: skip in one of these files fails the leg, tools/build-wheels reads this tuple).
KERNEL_TESTS = ("game/test_actions.py", "envs/test_vector.py", "envs/test_gym_vector.py",
                "envs/test_env_action_ids.py", "core/test_parallel.py", "test_kernel_safety.py",
                "test_kernel_regressions.py")


def pytest_configure(config):
    config.addinivalue_line("markers", "crosscheck: compares the core with the reference")
    config.addinivalue_line("markers", "wheel: in the wheel legs' subset (tests/conftest.py WHEEL_SUBSET)")
    config.addinivalue_line("markers", "kernels: in a serial wheel's leg (tests/conftest.py KERNEL_TESTS)")


def in_wheel_subset(path, paths=WHEEL_SUBSET) -> bool:
    """Whether the test file ``path`` is under one of ``paths`` (``WHEEL_SUBSET``'s or
    ``KERNEL_TESTS``'), relative to tests/."""
    tests = pathlib.Path(__file__).resolve().parent
    where = pathlib.Path(path).resolve()
    return tests in where.parents and where.relative_to(tests).as_posix().startswith(paths)


def pytest_collection_modifyitems(config, items):
    tests = pathlib.Path(__file__).resolve().parent
    for item in items:
        if in_wheel_subset(item.path):
            node = pathlib.Path(item.path).resolve().relative_to(tests).as_posix() + "::" + item.name
            if not node.startswith(WHEEL_SUBSET_HEAVY):
                item.add_marker(pytest.mark.wheel)
        if in_wheel_subset(item.path, KERNEL_TESTS):
            item.add_marker(pytest.mark.kernels)


def pytest_runtest_logreport(report):
    if "crosscheck" in report.keywords:
        if report.when == "call" and report.passed:
            _CROSSCHECK["passed"] += 1
        elif report.skipped or report.failed:
            _CROSSCHECK["other"].append(report.nodeid)


def _whole_suite(config) -> bool:
    """The run selects the default test paths with no -k and the default markers (or the
    wheel legs' subset, which holds the cross-checks too)."""
    tests = pathlib.Path(__file__).resolve().parent
    paths = [pathlib.Path(a.split("::")[0]).resolve() for a in config.args] or [tests]
    return (all(p in (tests, tests.parent) for p in paths) and not config.option.keyword
            and config.option.markexpr in ("", "not slow", "wheel and not slow") and not getattr(config.option, "lf", False)
            and not getattr(config.option, "deselect", None))


def pytest_sessionfinish(session, exitstatus):
    if NO_EXTENSIONS or not _whole_suite(session.config) or exitstatus not in (0, 1):
        return
    passed, other = _CROSSCHECK["passed"], _CROSSCHECK["other"]
    if passed < MIN_CROSSCHECKS or other:
        msg = (f"cross-check guard: {passed} core-vs-reference tests passed (at least "
               f"{MIN_CROSSCHECKS} expected)" + (f"; not passed: {other[:5]}" if other else ""))
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(msg, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# -- the skips, said at the end -----------------------------------------------------------

def skip_summary(reports, limit=12):
    """Lines ``N skipped: FILE: REASON`` for the skipped tests' reports, grouped by file and
    reason, most first (at most ``limit`` lines)."""
    groups = collections.Counter()
    for rep in reports:
        reason = rep.longrepr[2] if isinstance(rep.longrepr, tuple) and len(rep.longrepr) == 3 else str(rep.longrepr)
        reason = reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason
        groups[rep.nodeid.split("::")[0], reason] += 1
    lines = [f"{n:4d} skipped: {path}: {reason}" for (path, reason), n in groups.most_common(limit)]
    if len(groups) > limit:
        lines.append(f"     ... and {len(groups) - limit} more reasons (pytest -rs lists every one)")
    return lines


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Say at the end which tests were skipped and why, without ``-rs``: a missing browser
    (the browser tests skip without Chromium and chromedriver, except under ``CI=true``),
    Node.js or optional package must not pass unnoticed."""
    chars = getattr(config.option, "reportchars", "") or ""
    if any(c in chars for c in "sSaA"):          # pytest lists them itself
        return
    lines = skip_summary(terminalreporter.stats.get("skipped", []))
    if lines:
        terminalreporter.section("skipped tests, by reason", sep="-", yellow=True)
        for line in lines:
            terminalreporter.write_line(line)


# -- positions --------------------------------------------------------------------------

def deal(rng, size):
    """A random hand of ``size`` cards (uint8[15]) and the counts of the other cards."""
    hand = np.bincount(rng.permutation(CARDS)[:size], minlength=15).astype(np.uint8)
    return hand, DECK - hand


def random_hands(rng, n, size=None):
    """``uint8[n, 15]``: random hands of ``size`` cards (1..20 at random when None)."""
    out = np.zeros((n, 15), np.uint8)
    for i in range(n):
        k = int(rng.integers(1, 21)) if size is None else size
        out[i] = np.bincount(rng.permutation(CARDS)[:k], minlength=15)
    return out


def random_positions(space, n, seed):
    """(hands uint8[n,15], to_beat ids int32[n]): a mix of leads, realistic responses
    (a play from another dealt hand) and arbitrary plays that fit in the unseen cards."""
    rng = np.random.default_rng(seed)
    counts = space.card_counts.astype(np.int64)
    hands = np.zeros((n, 15), dtype=np.uint8)
    tbs = np.zeros(n, dtype=np.int32)
    for i in range(n):
        deck = rng.permutation(CARDS)
        size = int(rng.choice([17, 20, int(rng.integers(1, 21))]))
        hand = np.bincount(deck[:size], minlength=15)
        hands[i] = hand
        kind = i % 3
        if kind == 1:
            other = np.bincount(deck[size:size + 17], minlength=15)
            leads = space.legal_ids(other)
            tbs[i] = rng.choice(leads)
        elif kind == 2:
            rest = DECK.astype(np.int64) - hand
            fits = np.flatnonzero((counts <= rest).all(axis=1))
            tbs[i] = rng.choice(fits[1:])
    return hands, tbs


def deals(n, seed):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        deck = rng.permutation(CARDS)
        size = int(rng.choice([17, 20]))
        yield np.bincount(deck[:size], minlength=15), np.bincount(deck[size:size + 17], minlength=15), rng


@functools.lru_cache(maxsize=None)
def universe_arrays(rules):
    """The reference universe as arrays: plays, codes, counts[N,15], types, lengths, ranks."""
    plays = reference.all_plays(rules)
    codes = np.array([p.code for p in plays], dtype=np.int64)
    counts = np.array([p.counts for p in plays], dtype=np.uint8)
    types = np.array([int(p.type) for p in plays])
    lengths = np.array([p.length for p in plays])
    ranks = np.array([p.rank for p in plays])
    return plays, codes, counts, types, lengths, ranks


def play_from(rng, cards, rules):
    """A random play the multiset ``cards`` can form: a type first (uniformly among the
    types present), then a play of that type, so rare types are well represented."""
    plays, _, counts, types, _, _ = universe_arrays(rules)
    idx = np.flatnonzero((counts <= cards).all(axis=1))
    t = rng.choice(np.unique(types[idx]))
    return plays[int(rng.choice(idx[types[idx] == t]))]


def small_hands(limit=6):
    """Every count vector of at most ``limit`` cards (46,440 for 6), ``uint8[N, 15]``."""
    out = []
    cur = [0] * 15

    def rec(r, left):
        if r == 15:
            out.append(tuple(cur))
            return
        for c in range(min(int(DECK[r]), left) + 1):
            cur[r] = c
            rec(r + 1, left - c)
        cur[r] = 0
    rec(0, limit)
    return np.array(out, dtype=np.uint8)


# -- other engines' stand-ins -----------------------------------------------------------

class _RLCardCard:
    def __init__(self, ch):
        self.rank, self.suit = ("", "BJ" if ch == "B" else "RJ") if ch in "BR" else (ch, "S")


class RLCardPlayer:
    """What RLCard's judger reads of a player: ``current_hand`` (cards with ``rank`` and
    ``suit``) and ``played_cards`` (RLCard's action string of the last play)."""

    def __init__(self, hand="", played=""):
        text = hand if isinstance(hand, str) else ddz.format_cards(hand)
        self.current_hand = [_RLCardCard(ch) for ch in text]
        self.played_cards = played


# -- engine-profile positions (tests/test_engines.py, tests/test_core_crosscheck.py) ----------

DECK_RANKS = [r for r in range(13) for _ in range(4)] + [13, 14]


def rank_counts(ranks):
    c = [0] * 15
    for r in ranks:
        c[r] += 1
    return tuple(c)


class ProfilePlays:
    """A profile's plays grouped for drawing positions: by type, by (type, length), and
    the special ones (a card set with several readings; kickers holding a trio, four of a
    rank or both jokers)."""

    def __init__(self, rules):
        plays = ddz.all_plays(rules)
        sets = collections.Counter(p.counts for p in plays)
        self.by_type = collections.defaultdict(list)
        self.by_shape = collections.defaultdict(list)
        self.special = []
        for p in plays:
            self.by_type[p.type].append(p)
            self.by_shape[p.type, p.length].append(p)
            k = collections.Counter(p.kickers)
            if sets[p.counts] > 1 or (k and (max(k.values()) >= 3 or (k[13] and k[14]))):
                self.special.append(p)
        self.types = sorted(self.by_type)


def draw_beat(rng, plays):
    if plays.special and rng.random() < 0.25:
        return rng.choice(plays.special)
    return rng.choice(plays.by_type[rng.choice(plays.types)])


def take_cards(rest, counts):
    """Remove ``counts`` from the list of ranks ``rest``; False (and ``rest`` unchanged)
    when it does not hold them."""
    have = collections.Counter(rest)
    if any(have[r] < c for r, c in enumerate(counts)):
        return False
    for r, c in enumerate(counts):
        for _ in range(c):
            rest.remove(r)
    return True


def plant(rng, rest, plays, beat, size):
    """Ranks of a hand of ``size`` cards drawn from ``rest`` (removed from it), often
    holding a play of ``beat``'s type and length (or, when leading, a special play)."""
    hand = []
    if rng.random() < 0.7:
        pool = plays.by_shape[beat.type, beat.length] if beat is not None else plays.special
        q = rng.choice(pool) if pool else None
        if q is not None and sum(q.counts) <= size and take_cards(rest, q.counts):
            hand += [r for r, c in enumerate(q.counts) for _ in range(c)]
    rng.shuffle(rest)
    k = size - len(hand)
    hand += rest[:k]
    del rest[:k]                     # rest: the cards not dealt
    return hand


def profile_positions(rules, n, seed):
    """``n`` positions ``(hand counts, play to beat or None)`` for ``rules`` (seeded)."""
    rng = random.Random(seed)
    plays = ProfilePlays(rules)
    out = []
    while len(out) < n:
        size = rng.choice((17, 20))
        rest = list(DECK_RANKS)
        beat = None if rng.random() < 0.3 else draw_beat(rng, plays)
        if beat is not None:
            take_cards(rest, beat.counts)
        hand = plant(rng, rest, plays, beat, size)
        out.append((rank_counts(hand), beat))
    return out



# -- README and CLI ---------------------------------------------------------------------

def readme_code(heading, language="python"):
    """The first ``language`` code block after ``## heading`` in README.md (which must be
    next to the tests: the wheel's test command runs them from the project)."""
    text = README.read_text(encoding="utf-8")
    section = text.split(f"## {heading}", 1)[1]
    return re.search(rf"```{language}\n(.*?)```", section, re.S).group(1)


@pytest.fixture
def run_cli(capsys):
    """``run_cli(*argv) -> (exit code, stdout, stderr)`` of the ``ddz`` command in-process."""
    from ddz.cli import main

    def run(*argv):
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err
    return run


# -- game tests: deals and records built by hand -----------------------------------------

def fill_deal(seat0="", seat1="", seat2="", bottom=""):
    """A rank-notation deal in which each seat holds at least the given cards (seat
    hands before the bottom cards); the rest of the deck fills the hands up to 17 and the
    bottom up to 3, lowest ranks first, in the order bottom, seat 0, seat 1, seat 2."""
    want = [parse_cards(x).astype(int) for x in (seat0, seat1, seat2, bottom)]
    pool = DECK.astype(int) - sum(want)
    assert (pool >= 0).all(), "the required cards exceed one deck"
    sizes = [17, 17, 17, 3]
    for i in (3, 0, 1, 2):
        while want[i].sum() < sizes[i]:
            r = next(r for r in range(15) if pool[r])
            pool[r] -= 1
            want[i][r] += 1
        assert want[i].sum() == sizes[i], f"part {i} holds too many required cards"
    return tuple("".join(RANK_CHARS[r] * int(c) for r, c in enumerate(w)) for w in want)


def record(deal, actions, *, first_bidder=0, rules=None, result=None, seed=0):
    """A version 1 record built by hand: ``actions`` is a list of ``(seat, action text)``."""
    rules = rules or {}
    return {
        "format": "ddz-record", "version": 1,
        "rules": {"kickers": "distinct", "bidding": "points", "doubling": False,
                  "bottom_bonus": False, **rules},
        "seed": seed, "dealt_from_seed": False, "first_bidder": first_bidder,
        "deals": [{"hands": list(deal[:3]), "bottom": deal[3]}],
        "actions": [{"seat": s, "action": a} for s, a in actions],
        "result": result,
    }
