"""One table per move rule set, the core's play-type tables against the reference's, and
the play code layout (issue "Rules as data in the core")."""

import pathlib
import re

import numpy as np
import pytest

import ddz
from ddz import Play, PlayType, Rules
from ddz.core.play import BODY_WIDTH, KICKER_UNITS, MIN_CHAIN
from ddz.core.tables import table

T = PlayType
SRC = pathlib.Path(__file__).resolve().parents[2] / "src" / "ddz"   # the checkout's sources


def _core():
    if ddz.core.implementation.NO_EXTENSIONS:
        pytest.skip("DDZ_NO_EXTENSIONS=1: the compiled core is not built")
    from ddz.core import _core
    return _core


def test_type_properties_equal_the_reference_tables():
    core = _core().type_properties()
    from ddz.core import reference
    assert core["width"] == {int(t): w for t, w in BODY_WIDTH.items()}
    assert core["min_chain"] == {int(t): n for t, n in MIN_CHAIN.items()}
    assert core["kicker_units"] == {int(t): u for t, u in KICKER_UNITS.items()}
    assert core["chain"] == {int(t) for t in T if t.is_chain}
    # the reference's own table (RULES.md §2, written separately from the core's)
    assert set(reference.TYPES) == set(T) - {T.PASS, T.ROCKET}
    for t, shape in reference.TYPES.items():
        assert core["width"][int(t)] == shape.width
        assert (int(t) in core["chain"]) == shape.chain
        assert core["min_chain"].get(int(t), 1) == shape.min_length
        assert core["kicker_units"].get(int(t), (0, 0)) == (shape.kickers, shape.kicker_size)


def test_one_table_per_move_rule_set_shared_by_every_user():
    _core()
    t = table(Rules(kickers="repeat"))
    assert table(Rules(kickers="repeat", bidding="rob", doubling=True)) is t
    assert table(Rules()) is not t and len(t) == 27472 and len(table(Rules())) == 12655
    space = ddz.ActionSpace(Rules(kickers="repeat", bottom_bonus=True))
    assert space._t is t
    game = ddz.Game(Rules(kickers="repeat", doubling=True), seed=1)
    assert game.action_space._t is t
    assert ddz.core.compiled._tables(Rules(kickers="repeat")) is t
    # interned plays: the moves are the table's objects, not new ones
    moves = ddz.legal_moves("33344455", rules=Rules(kickers="repeat"))
    assert all(m is t.plays[t.index_of_play[m]] for m in moves)


def test_kernels_read_options_only_from_the_struct():
    """No kernel signature carries a loose rule option any more."""
    for name in ("core/_core.pyx", "core/_core.pxd", "game/_actions.pyx"):
        text = (SRC / name).read_text(encoding="utf-8")
        assert len(re.findall(r"int repeat", text)) == 0, name
        assert "DECKS" not in text


def test_code_layout_holds_every_planned_structure():
    plays = [Play(T.BOMB, 12, 1, (), 8), Play(T.ROCKET, 14, 1, (), 2), Play(T.PAIR, 14),
             Play(T.TRIO_PAIR, 0, 1, (13, 13)), Play(T.FOUR_TWO_SINGLES, 1, 1, (0, 0)),
             Play(T.AIRPLANE_SINGLES, 11, 5, (0, 0, 0, 0, 12)),
             Play(T.AIRPLANE_PAIRS, 11, 6, tuple(r for r in (0, 1, 2, 3, 4, 12) for _ in "ab"))]
    codes = [p.code for p in plays]
    assert len(set(codes)) == len(codes) and all(0 < c < 1 << 62 for c in codes)
    for p in plays:
        assert Play.from_code(p.code) == p and Play.from_code(p.code).width == p.width
    assert Play(T.BOMB, 0, 1, (), 5) != Play(T.BOMB, 0, 1)
    assert str(Play(T.BOMB, 0, 1, (), 5)) == "33333" and str(Play(T.ROCKET, 14, 1, (), 2)) == "BBRR"
    # move order: width before rank, so every 4-card bomb comes before every 5-card one
    assert sorted([Play(T.BOMB, 0, 1, (), 5), Play(T.BOMB, 12, 1)]) == [Play(T.BOMB, 12, 1), Play(T.BOMB, 0, 1, (), 5)]


def test_kernels_compare_bombs_by_size_then_rank():
    """The comparison kernel already knows RULES.md §7: a bomb of more cards beats one of
    fewer (the two-deck game that plays them is another issue)."""
    from ddz.core.reference import _beats
    small, big = Play(T.BOMB, 12, 1), Play(T.BOMB, 0, 1, (), 5)
    assert _beats(big, small) is True and _beats(small, big) is False
    _core()
    # through the table of the one-deck game, only plays of its universe are accepted
    t = table(Rules())
    with pytest.raises(ddz.InvalidPlayError):
        t.beats(big.code, small.code)


def test_ids_of_codes_and_codes_of_ids():
    for rules in (Rules(), Rules(kickers="repeat")):
        space = ddz.ActionSpace(rules)
        codes = space.codes.reshape(-1, 1)
        assert np.array_equal(space.ids_of_codes(codes), np.arange(len(space)).reshape(-1, 1))
        assert space.ids_of_codes([Play(T.BOMB, 0, 1, (), 5).code, -1, 2 ** 62]).tolist() == [-1, -1, -1]
        assert np.array_equal(space.codes_of_ids([[0, 1], [2, 3]]), space.codes[[[0, 1], [2, 3]]])
        with pytest.raises(ddz.ActionIdError):
            space.codes_of_ids([len(space)])
        with pytest.raises(ddz.InvalidPlayError):
            space.ids_of_codes([1.5])


def test_batch_methods_refuse_none():
    _core()
    t = table(Rules())
    for hands, tbs in ((None, None), (np.zeros((1, 15), np.uint8), None), (np.zeros((0, 15), np.uint8), None)):
        with pytest.raises(ddz.HandError, match="not None"):
            t.legal_codes_batch(hands, tbs)
        with pytest.raises(ddz.HandError, match="not None"):
            t.count_legal_batch(hands, tbs)
    with pytest.raises(ddz.HandError, match="hands must be a uint8.*not None"):
        t.legal_codes_batch(None, np.zeros(0, np.int64))


def test_tables_build_plays_identical_to_the_checked_constructor():
    """Tables build their plays by a trusted decoder; it must agree with Play.from_code."""
    for rules in (Rules(), Rules(kickers="repeat")):
        for p in table(rules).plays:
            q = Play.from_code(p.code)
            assert (p.type, p.rank, p.length, p.kickers, p.width, p.counts, p.code, hash(p)) == \
                (q.type, q.rank, q.length, q.kickers, q.width, q.counts, q.code, hash(q))
            assert type(p.type) is PlayType


def test_counts_of_text_agrees_with_parse_cards():
    """The C counter of plain notation equals parse_cards wherever it answers, and leaves
    everything else (10, 小王, BJ/RJ, other characters) to it."""
    _core()
    t = table(Rules())
    rng = np.random.default_rng(4)
    alphabet = list("3456789TJQKA2BRtjqkabr -+,")
    for _ in range(3000):
        text = "".join(rng.choice(alphabet, size=int(rng.integers(0, 25))))
        got = t.counts_of_text(text)
        try:
            want = ddz.parse_cards(text, decks=2)
        except ddz.NotationError:
            assert got is None, text
            continue
        except ddz.ImpossibleHandError:     # beyond two decks: counted, the kernels refuse it
            assert got is not None and sum(got.tolist()) == sum(ch not in " -+," for ch in text), text
            continue
        assert got is not None and got.tolist() == want.tolist(), text
    for text in ("10", "小王", "3BJ", "rj", "x", "3 3\t3", "é"):
        got = t.counts_of_text(text)
        assert got is None or got.tolist() == ddz.parse_cards(text).tolist(), text
    assert t.counts_of_text("3BJ") is None and t.counts_of_text("10") is None
    with pytest.raises(TypeError):
        t.counts_of_text(b"333")


# -- tables made on first use (issue 24: a first call costs about a millisecond) ----------

def test_a_new_table_makes_only_the_plays_asked_for(monkeypatch):
    """Building a table generates codes, card counts and the code -> id hash in C and makes
    no Play; each Play is made when first answered, once: the same object after."""
    core = _core()
    made = []
    real = core._trusted_play
    monkeypatch.setattr(core, "_trusted_play", lambda code: made.append(code) or real(code))
    rules = Rules(kickers="repeat")
    t = core.RuleTable(rules)                         # a new table, not the shared one
    assert made == [] and len(t) == 27472 and t.counts.shape == (27472, 15)
    assert np.array_equal(t.counts, table(rules).counts) and np.array_equal(t.codes, table(rules).codes)
    hand = ddz.parse_cards("33344455")
    moves = t.moves(hand)
    assert sorted(made) == sorted(m.code for m in moves) and len(moves) == ddz.count_legal_moves(hand, None, rules) > 10
    again = t.moves(hand) + t.readings(hand[:5].tolist() + [0] * 10)
    assert all(a is b for a, b in zip(moves, again)) and len(made) == len(set(made)) == len(moves)
    assert t.plays[0] is ddz.PASS and made.count(0) == 0       # the pass is the module's PASS
    assert [m is t.plays[t.index_of_play[m]] for m in moves] == [True] * len(moves)


def test_the_lazy_views_hold_the_whole_universe():
    _core()
    from ddz.core import reference
    for rules in (Rules(), Rules(kickers="repeat"), Rules.four_player(), Rules(banned={"BOMB"})):
        t = table(rules)
        want = [ddz.PASS] + reference.all_plays(rules.universe_rules)
        assert len(t.plays) == len(t.notation) == len(t.index_of_play) == len(want)
        assert list(t.plays) == want and list(reversed(t.plays)) == want[::-1]
        assert list(t.notation) == [str(p) for p in want]
        assert t.counts.tolist() == [list(p.counts) for p in want]
        assert [t.index_of_play[p] for p in want] == list(range(len(want)))
        assert dict(t.index_of_play.items()) == {p: i for i, p in enumerate(want)}
        assert t.plays[-1] is t.plays[len(want) - 1] and t.plays[1:4] == tuple(want[1:4])
        assert t.notation[-1] == str(want[-1]) and t.notation[:2] == ("pass", str(want[1]))
        assert all(p in t.plays and t.plays.index(p) == t.index_of_play.get(p) for p in want[::97])
        assert all(str(p) in t.notation and t.notation.index(str(p)) == t.index_of_play[p] for p in want[::97])
    t = table(Rules(kickers="repeat"))
    assert "444+8" in t.notation and "4448" not in t.notation and "x" not in t.notation
    assert t.notation.count("444+8") == 1 and t.plays.count(ddz.Play.parse("3")) == 1


def test_the_lazy_views_refuse_what_a_tuple_and_a_dict_refuse():
    _core()
    import pickle
    t = table(Rules())
    n = len(t)
    for bad in (n, -n - 1):
        with pytest.raises(IndexError):
            t.plays[bad]
        with pytest.raises(IndexError):
            t.notation[bad]
    for bad in (1.0, "1", None, True):
        with pytest.raises(TypeError):
            t.plays[bad]
    five = Play(PlayType.BOMB, 0, 1, width=5)                    # a play of two decks only
    assert five not in t.plays and five not in t.index_of_play and t.index_of_play.get(five, -7) == -7
    assert "3" not in t.index_of_play and t.index_of_play.get("3") is None
    with pytest.raises(KeyError):
        t.index_of_play[five]
    with pytest.raises(ValueError):
        t.plays.index(five)
    for view in (t.plays, t.notation, t.index_of_play):
        with pytest.raises(TypeError):
            pickle.dumps(view)


def test_threads_that_ask_for_the_same_new_plays_get_the_same_objects():
    core = _core()
    import threading
    t = core.RuleTable(Rules(kickers="repeat"))
    ids = list(range(1, len(t), 7))
    out = [None] * 4
    start = threading.Barrier(4)

    def read(k):
        start.wait()
        out[k] = [t.plays[i] for i in (ids if k % 2 else ids[::-1])]

    workers = [threading.Thread(target=read, args=(k,)) for k in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    first = out[1]
    for k in (0, 2):
        out[k] = out[k][::-1]
    assert all(all(a is b for a, b in zip(first, o)) for o in out)
    assert [t.plays[i] for i in ids] == [ddz.Play.from_code(int(t.codes[i])) for i in ids]


def test_texts_read_are_remembered_per_rule_set_and_bounded(monkeypatch):
    core = _core()
    t = core.RuleTable(Rules(kickers="repeat"))
    p = t.play_of_text("4448")
    assert t.texts_read == {"4448": p} and t.play_of_text("4448") is p
    assert t.play_of_text("444+8") is p and t.play_of_text("444+8", False) is p
    # a plain text that only Play.parse's choice reads (several readings, RULES.md §2.5)
    # is not remembered: classify must still refuse it
    rules = Rules.profile("openspiel").move_rules
    with pytest.raises(ValueError, match="base table"):
        core.RuleTable(rules)                  # its universe is its universe_rules' one
    wings = core.RuleTable(rules, core.RuleTable(rules.universe_rules))
    assert len(ddz.readings("333444555666", wings.rules)) == 3
    got = wings.play_of_text("333444555666")
    assert got == ddz.Play.parse("333444555666", wings.rules) and not got.kickers
    assert "333444555666" not in wings.texts_read and wings.play_of_text("333444555666", False) is None
    banned = core.RuleTable(Rules(kickers="repeat", banned={"TRIO_SINGLE"}), t)
    assert banned.play_of_text("4448") is None and banned.texts_read == {}
    monkeypatch.setattr(core, "TEXTS_READ", 3)
    small = core.RuleTable(Rules())
    for s in ("3", "4", "5", "6", "7"):
        assert small.play_of_text(s) is small.plays[small.index_of_play[ddz.Play.parse(s)]]
    assert list(small.texts_read) == ["3", "4", "5"]
