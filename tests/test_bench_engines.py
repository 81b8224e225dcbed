"""The legal-move benchmark (``bench/compare.py``) times every engine on the same cards
(issue 24): each engine's input, read back through that engine's own representation
(``bench/engines.py``: ``held``), holds the position's hand and play to beat, and the
engine's legal moves number what ddz counts under that engine's profile
(``Rules.profile``, RULES.md §2.5). OpenSpiel takes every responding 17-card position
whose play to beat its action space has (not only those its card ids happened to match).

Each engine's test skips (per test) when its package is missing.
"""

from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

import ddz
from ddz import Rules, interop
from ddz.core.implementation import NO_EXTENSIONS

BENCH = pathlib.Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import engines  # noqa: E402
import positions  # noqa: E402

#: every STEP-th position of each group (the pure-Python leg counts with the reference)
STEP = 20 if NO_EXTENSIONS else 4
PACKAGE = {"DouZero": "douzero.env.game", "RLCard": "rlcard", "OpenSpiel": "pyspiel"}


def _sample(group):
    return positions.by_group(group)[::STEP]


@pytest.mark.parametrize("engine", list(engines.HELD))
@pytest.mark.parametrize("group", positions.GROUPS)
def test_every_engine_gets_the_positions_cards(engine, group):
    pytest.importorskip(PACKAGE[engine])
    rules = Rules.profile(engines.HELD[engine][1])
    taken = 0
    for p in _sample(group):
        got = engines.held(engine, p)
        fn = engines.prepare(engine, p)
        assert (got is None) == (fn is None)
        if got is None:
            continue
        taken += 1
        hand, beat = got
        assert np.array_equal(hand, p.hand), (engine, ddz.format_cards(p.hand), ddz.format_cards(hand))
        if p.to_beat is None:
            assert beat is None
        else:
            assert beat is not None and beat.counts == p.to_beat.counts, (engine, str(p.to_beat), str(beat))
        moves = fn()
        # DouZero's generator may list a move twice; the others list each once
        n = len({tuple(m) for m in moves}) if engine == "DouZero" else len(moves)
        assert n == ddz.count_legal_moves(p.hand, beat, rules), (engine, ddz.format_cards(p.hand), str(beat))
    if engine != "OpenSpiel" or group in ("lead20", "respond17"):
        assert taken, f"{engine} took none of the {group} positions"


def test_openspiel_takes_every_position_it_can_express():
    """Responding 17-card positions: OpenSpiel's landlord is dealt the play to beat and
    plays it, so OpenSpiel takes every position whose play its action space has, that the
    landlord may lead under OpenSpiel's rules (ddz's profile agrees: no chain from a rank
    held in full) and that leaves the landlord a card."""
    pytest.importorskip("pyspiel")
    rules = Rules.profile("openspiel")
    taken = 0
    for p in _sample("respond17"):
        landlord = np.zeros(15, np.uint8)
        for i in engines._os_deal(p)[0]:
            landlord[i % 13 if i < 52 else i - 39] += 1
        assert (landlord >= np.array(p.to_beat.counts)).all() and landlord.sum() == 20
        try:
            interop.to_openspiel(p.to_beat, rules)
            expressible = p.to_beat.num_cards < 20 and p.to_beat in ddz.legal_moves(landlord, None, rules)
        except ddz.DdzError:        # not a play of OpenSpiel's (four-with-two)
            expressible = False
        assert (engines.prepare("OpenSpiel", p) is not None) == expressible, str(p.to_beat)
        taken += expressible
    assert taken > len(_sample("respond17")) // 2


def test_openspiel_card_ids_are_its_own():
    """``_os_cards`` numbers cards as OpenSpiel deals them: chance action 51 + id is
    ``Deal <suit><rank>``, rank = id % 13 for the 52 suited cards, then the jokers."""
    pytest.importorskip("pyspiel")
    import pyspiel

    s = pyspiel.load_game("dou_dizhu").new_initial_state()
    s.apply_action(0)
    names = {a - 51: s.action_to_string(a)[len("Deal "):] for a in s.legal_actions()}
    assert len(names) == 54
    used, ids = [0] * 15, []
    for r in range(15):
        one = np.zeros(15, np.uint8)
        one[r] = 4 if r < 13 else 1
        for i in engines._os_cards(one, used):
            rank = {"(BWJ)": "B", "(CJ)": "R"}.get(names[i], names[i][1:])
            assert rank == engines.RANKS[r], (r, i, names[i])
            ids.append(i)
    assert sorted(ids) == list(range(54))


@pytest.mark.parametrize("group", positions.GROUPS)
def test_ddz_rows_count_the_same_moves(group):
    """The three ddz rows and the reference compute the same moves on each position."""
    for p in _sample(group)[:: 5 if NO_EXTENSIONS else 1]:
        n = engines.prepare("ddz count", p)()
        assert len(engines.prepare("ddz array", p)()) == len(engines.prepare("ddz legal_moves", p)()) == n
    for p in _sample(group)[::25]:
        assert engines.prepare("reference", p)() == engines.prepare("ddz legal_moves", p)()
