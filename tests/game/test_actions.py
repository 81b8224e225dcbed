"""ddz.ActionSpace: the frozen id table, legal ids and masks, batch APIs, encodings.

The pure-Python path (``implementation="reference"``, what ``DDZ_NO_EXTENSIONS=1``
selects) is the oracle; the compiled kernels are compared with it and with
``ddz.legal_moves`` on random positions, for both kicker rules.
"""

import hashlib

import numpy as np
import pytest

import ddz
from ddz.game import actions
from ddz.game.actions import ActionIdError, ActionSpace, encode_actions, encode_cards

RULES = {"distinct": ddz.STANDARD, "repeat": ddz.REPEAT_KICKERS}
from conftest import random_positions

IMPLS = ["reference"] + (["kernel"] if actions._kernel is not None else [])

# sha256 of "\n".join(f"{id} {notation}"), computed once (PR for issue 4) and pinned:
# changing the id table breaks every trained policy, so it must be deliberate.
CHECKSUMS = {
    "distinct": (12655, "62d64c4ec18c57ab327918bfc6b540cc51fae550edc14b1b90dbce68bb3793b6"),
    "repeat": (27472, "8f0071cc1f1b8001929a9823edc3849b2f99881fe22d5deb1f5bf248e9cd8ece"),
}


@pytest.fixture(scope="module", params=sorted(RULES))
def kickers(request):
    return request.param


@pytest.fixture(scope="module", params=IMPLS)
def space(request, kickers):
    return ActionSpace(RULES[kickers], implementation=request.param)


@pytest.fixture(scope="module")
def oracle(kickers):
    return ActionSpace(RULES[kickers], implementation="reference")


# -- the table -----------------------------------------------------------------------

def test_sizes_and_checksum(kickers):
    space = ActionSpace(RULES[kickers])
    size, digest = CHECKSUMS[kickers]
    assert len(space) == size
    table = "\n".join(f"{i} {space.notation(i)}" for i in range(len(space)))
    assert hashlib.sha256(table.encode()).hexdigest() == digest


def test_order_is_pass_then_all_plays(kickers):
    space = ActionSpace(RULES[kickers])
    assert space.pass_id == 0 and space.play(0) == ddz.PASS
    assert list(space)[1:] == ddz.all_plays(RULES[kickers])
    assert (np.diff(space.codes[1:]) != 0).all()


def test_every_id_round_trips(kickers):
    space = ActionSpace(RULES[kickers])
    for i, play in enumerate(space):
        assert space.play(i) is play
        assert space.id(play) == i
        text = space.notation(i)
        assert text == str(play)
        assert space.id(text) == i
        assert text in space and play in space and i in space


@pytest.mark.parametrize("kickers", ["distinct", "repeat"])
def test_table_maps_every_code_to_its_id(kickers):
    """The table's code -> id lookup (the kernels' hash, or the pure-Python dict) over the
    whole universe, through the public converters."""
    space = ActionSpace(ddz.Rules(kickers=kickers))
    codes = np.array([p.code for p in space], dtype=np.int64)
    assert space.ids_of_codes(codes).tolist() == list(range(len(space)))
    assert space.codes_of_ids(np.arange(len(space))).tolist() == codes.tolist()


def test_membership_and_errors():
    space, rep = ActionSpace(), ActionSpace(ddz.REPEAT_KICKERS)
    assert "33344455" not in space and "33344455" in rep
    assert "xyz" not in space and len(space) not in space and -1 not in space and None not in space
    with pytest.raises(ddz.InvalidPlayError, match="33344455"):
        space.id("33344455")
    with pytest.raises(ddz.InvalidPlayError):
        space.id(rep.play(rep.id("33344455")))
    with pytest.raises(ActionIdError, match="12655"):
        space.play(12655)
    with pytest.raises(ActionIdError):
        space.play(-1)
    with pytest.raises(ActionIdError, match="int"):
        space.play("3")
    with pytest.raises(ActionIdError):
        space.notation(True)
    assert issubclass(ActionIdError, ddz.DdzError) and issubclass(ActionIdError, ValueError)
    with pytest.raises(ddz.DdzError, match="implementation"):
        ActionSpace(implementation="fast")
    with pytest.raises(ddz.DdzError, match="Rules"):
        ActionSpace("repeat")


def test_value_semantics():
    a, b = ActionSpace(), ActionSpace(ddz.Rules())
    assert a == b and hash(a) == hash(b) and a != ActionSpace(ddz.REPEAT_KICKERS)
    scoring = ActionSpace(ddz.Rules(doubling=True, bottom_bonus=True))
    assert scoring != a and scoring._t is a._t  # same plays, tables shared
    assert "12655" in repr(a)
    with pytest.raises(AttributeError):
        a.rules = ddz.REPEAT_KICKERS


# -- one position ---------------------------------------------------------------------

@pytest.mark.parametrize("impl", IMPLS)
def test_worked_examples(impl):
    space = ActionSpace(implementation=impl)
    rep = ActionSpace(ddz.REPEAT_KICKERS, implementation=impl)
    assert len(space.legal_ids("33344455")) == 18 and len(rep.legal_ids("33344455")) == 19
    assert [space.notation(i) for i in space.legal_ids("BR", "2222")] == ["pass", "BR"]
    assert [space.notation(i) for i in space.legal_ids("3")] == ["3"]
    assert list(space.legal_ids("33", "4")) == [0]
    assert list(rep.legal_ids("666777888999", "333444555JQK")) == [0]
    ids = space.legal_ids("33344455")
    assert ids.dtype == np.int32 and (np.diff(ids) > 0).all()


@pytest.mark.parametrize("impl", IMPLS)
def test_to_beat_forms_agree(impl):
    space = ActionSpace(implementation=impl)
    hand = "3445566778899TJQKA2BR"[:20]
    tb = ddz.Play.parse("34567")
    expect = space.legal_ids(hand, tb)
    assert list(space.legal_ids(hand, "34567")) == list(expect)
    assert list(space.legal_ids(hand, space.id(tb))) == list(expect)
    assert list(space.legal_ids(hand, np.int32(space.id(tb)))) == list(expect)
    assert list(space.legal_ids(hand, space.pass_id)) == list(space.legal_ids(hand))
    assert expect[0] == space.pass_id and space.pass_id not in space.legal_ids(hand)


def test_matches_legal_moves(space, kickers):
    rules = RULES[kickers]
    hands, tbs = random_positions(space, 60, seed=1)
    for hand, tb in zip(hands, tbs):
        to_beat = None if tb == 0 else space.play(tb)
        expect = [space.id(p) for p in ddz.legal_moves(hand, to_beat, rules)]
        assert space.legal_ids(hand, to_beat).tolist() == expect
        mask = space.legal_mask(hand, int(tb))
        assert mask.dtype == np.bool_ and mask.shape == (len(space),)
        assert np.flatnonzero(mask).tolist() == expect


def test_legal_mask_out(space):
    buf = np.ones(len(space), dtype=bool)
    got = space.legal_mask("33344455", out=buf)
    assert got is buf and np.flatnonzero(buf).tolist() == space.legal_ids("33344455").tolist()
    with pytest.raises(ddz.HandError, match="out"):
        space.legal_mask("3", out=np.zeros(len(space), dtype=np.uint8))
    with pytest.raises(ddz.HandError, match="out"):
        space.legal_mask("3", out=np.zeros(len(space) + 1, dtype=bool))


def test_single_position_errors():
    space = ActionSpace()
    with pytest.raises(ddz.ImpossibleHandError):
        space.legal_ids("333334")
    with pytest.raises(ddz.InvalidPlayError, match="not a play"):
        space.legal_ids("2222", "33334444")
    with pytest.raises(ddz.InvalidPlayError, match="pass"):
        space.legal_ids("2222", "pass")
    with pytest.raises(ActionIdError, match="out of range"):
        space.legal_ids("2222", 99999)
    with pytest.raises(ddz.ImpossibleHandError, match="together"):
        space.legal_ids("2222", "22")
    with pytest.raises(ddz.ImpossibleHandError, match="together"):
        space.legal_ids("2222", space.id("22"))
    with pytest.raises(ddz.ImpossibleHandError, match="21 cards"):
        space.legal_ids("3334445556667778889TJ")


# -- batches ---------------------------------------------------------------------------

def test_batches_equal_single_calls(space, oracle):
    hands, tbs = random_positions(space, 48, seed=2)
    masks = space.legal_masks(hands, tbs)
    ids, offsets = space.legal_ids_batch(hands, tbs)
    assert masks.shape == (48, len(space)) and masks.dtype == np.bool_
    assert ids.dtype == np.int32 and offsets.dtype == np.int64 and offsets.shape == (49,)
    assert offsets[0] == 0 and offsets[-1] == len(ids)
    want_ids, want_off = oracle.legal_ids_batch(hands, tbs)
    assert np.array_equal(ids, want_ids) and np.array_equal(offsets, want_off)
    for i in range(len(hands)):
        single = oracle.legal_ids(hands[i], int(tbs[i]))
        assert ids[offsets[i]:offsets[i + 1]].tolist() == single.tolist()
        assert np.flatnonzero(masks[i]).tolist() == single.tolist()


@pytest.fixture(scope="module")
def batch(oracle):
    """300 positions (enough rows for the kernels to use 2 threads) and the oracle's masks."""
    hands, tbs = random_positions(oracle, 300, seed=3)
    return hands, tbs, oracle.legal_masks(hands, tbs)


def test_batch_out_and_threads(space, batch):
    hands, tbs, ref = batch
    # threads only matter to the kernels (0: every CPU; 2 and 3 both give 2 for 300 rows)
    for threads in ([0, 1, 2, 3] if space.implementation == "kernel" else [1]):
        buf = np.ones(ref.shape, dtype=bool)
        got = space.legal_masks(hands, tbs, out=buf, threads=threads)
        assert got is buf and np.array_equal(buf, ref)
        ids, off = space.legal_ids_batch(hands, tbs, threads=threads)
        assert np.array_equal(np.repeat(np.arange(len(hands)), np.diff(off)), np.nonzero(ref)[0])
        assert np.array_equal(ids, np.nonzero(ref)[1])


def test_batch_accepts_other_int_dtypes_and_empty(space):
    hands, tbs = random_positions(space, 6, seed=4)
    ref = space.legal_masks(hands, tbs)
    assert np.array_equal(space.legal_masks(hands.astype(np.int64), tbs.astype(np.int64)), ref)
    assert np.array_equal(space.legal_masks(hands.tolist(), tbs.tolist()), ref)
    empty = np.zeros((0, 15), np.uint8)
    assert space.legal_masks(empty, []).shape == (0, len(space))
    ids, off = space.legal_ids_batch(empty, np.zeros(0, np.int32))
    assert ids.shape == (0,) and off.tolist() == [0]


def test_batch_errors(space):
    good = np.zeros((3, 15), np.uint8)
    good[:, 0] = 1
    tbs = np.zeros(3, np.int32)
    with pytest.raises(ddz.HandError, match=r"\(B, 15\)"):
        space.legal_masks(good[:, :14], tbs)
    with pytest.raises(ddz.HandError, match=r"\(B, 15\)"):
        space.legal_ids_batch(good[0], tbs)
    with pytest.raises(ddz.HandError, match="dtype float"):
        space.legal_masks(good.astype(float), tbs)
    with pytest.raises(ddz.HandError, match="to_beat_ids"):
        space.legal_masks(good, tbs[:2])
    with pytest.raises(ddz.HandError, match="to_beat_ids"):
        space.legal_masks(good, tbs.astype(float))
    bad = tbs.copy()
    bad[2] = len(space)
    with pytest.raises(ActionIdError, match=r"to_beat_ids\[2\]"):
        space.legal_ids_batch(good, bad)
    bad[2] = -1
    with pytest.raises(ActionIdError, match=r"to_beat_ids\[2\]"):
        space.legal_masks(good, bad)
    five = good.copy()
    five[1, 3] = 5
    with pytest.raises(ddz.ImpossibleHandError, match=r"hands\[1\]"):
        space.legal_masks(five, tbs)
    jokers = good.copy()
    jokers[2, 14] = 2
    with pytest.raises(ddz.ImpossibleHandError, match=r"hands\[2\]"):
        space.legal_ids_batch(jokers, tbs)
    many = good.copy()
    many[0, :13] = 2
    with pytest.raises(ddz.ImpossibleHandError, match=r"hands\[0\].*26 cards"):
        space.legal_masks(many, tbs)
    neg = good.astype(np.int8)
    neg[1, 0] = -1
    with pytest.raises(ddz.HandError, match=r"hands\[1\].*negative"):
        space.legal_masks(neg, tbs)
    clash = good.copy()
    clash[1, 12] = 4
    with pytest.raises(ddz.ImpossibleHandError, match=r"hands\[1\].*together"):
        space.legal_masks(clash, np.array([0, space.id("2"), 0], np.int32))
    with pytest.raises(ddz.HandError, match="out"):
        space.legal_masks(good, tbs, out=np.zeros((3, len(space)), dtype=np.uint8))
    with pytest.raises(ddz.HandError, match="out"):
        space.legal_masks(good, tbs, out=np.zeros((len(space), 3), dtype=bool).T)


# -- encodings -----------------------------------------------------------------------

def test_encode_cards_layout():
    enc = encode_cards("33344BR")
    assert enc.dtype == np.uint8 and enc.shape == (54,)
    assert enc[:8].tolist() == [1, 1, 1, 0, 1, 1, 0, 0] and enc[52] == 1 and enc[53] == 1
    assert enc.sum() == 7
    enc = encode_cards(ddz.parse_cards("2222B"))
    assert enc[48:54].tolist() == [1, 1, 1, 1, 1, 0] and enc.sum() == 5


def test_encode_cards_batch_and_errors():
    hands, _ = random_positions(ActionSpace(), 10, seed=5)
    batch = encode_cards(hands)
    assert batch.shape == (10, 54)
    for row, enc in zip(hands, batch):
        assert np.array_equal(encode_cards(row), enc)
        assert enc.sum() == row.sum()
    out = np.empty((10, 54), np.uint8)
    assert encode_cards(hands, out=out) is out and np.array_equal(out, batch)
    with pytest.raises(ddz.HandError, match="shape"):
        encode_cards(np.zeros((2, 14), np.uint8))
    with pytest.raises(ddz.HandError, match="dtype"):
        encode_cards(np.zeros(15, float))
    bad = hands.copy()
    bad[7, 13] = 2
    with pytest.raises(ddz.ImpossibleHandError, match=r"counts\[7\]"):
        encode_cards(bad)
    with pytest.raises(ddz.ImpossibleHandError):
        encode_cards("333334")


def test_encode_actions(kickers):
    space = ActionSpace(RULES[kickers])
    ids = np.arange(len(space))
    enc = encode_actions(ids, RULES[kickers])
    assert enc.shape == (len(space), 54) and not enc[0].any()
    assert np.array_equal(enc, encode_cards(space.card_counts))
    assert np.array_equal(enc.sum(axis=1), space.card_counts.sum(axis=1))
    two_d = space.encode_actions(ids[:12].reshape(3, 4))
    assert two_d.shape == (3, 4, 54) and np.array_equal(two_d.reshape(12, 54), enc[:12])
    with pytest.raises(ActionIdError, match="out of range"):
        encode_actions([0, len(space)], space)
    with pytest.raises(ActionIdError, match="integers"):
        encode_actions([0.5], space)


def test_exports_and_env_switch():
    assert ddz.ActionSpace is ActionSpace
    assert ddz.encode_cards is encode_cards and ddz.encode_actions is encode_actions
    if ddz.core.implementation.NO_EXTENSIONS:
        assert actions.IMPLEMENTATION == "reference"
        with pytest.raises(ddz.DdzError, match="kernels"):
            ActionSpace(implementation="kernel")
    else:  # a built package must use the kernels: a failed compile is never pure Python
        assert actions.IMPLEMENTATION == "kernel" and ActionSpace().implementation == "kernel"


# -- fixes from the tester's report ------------------------------------------------------

@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("dtype", [np.uint64, np.uint32, np.uint16, np.int64])
def test_batch_huge_counts_do_not_wrap(impl, dtype):
    """A huge unsigned count must not wrap to a small or negative number when cast."""
    S = ActionSpace(implementation=impl)
    H = np.zeros((2, 15), dtype)
    H[1, 0] = np.iinfo(dtype).max
    T = np.zeros(2, np.int32)
    for call in (lambda: S.legal_masks(H, T), lambda: S.legal_ids_batch(H, T)):
        with pytest.raises(ddz.ImpossibleHandError, match=r"hands\[1\] holds .* copies of '3'"):
            call()
    H[1, 0] = 256  # wraps to 0 as uint8
    with pytest.raises(ddz.ImpossibleHandError, match=r"hands\[1\]"):
        S.legal_masks(H, T)


@pytest.mark.parametrize("dtype", [np.uint64, np.uint8, np.int64])
def test_encode_cards_huge_counts_say_too_many(dtype):
    c = np.zeros(15, dtype)
    c[0] = np.iinfo(dtype).max
    with pytest.raises(ddz.ImpossibleHandError, match=r"holds \d+ copies of .3., more than one deck.s 4") as e:
        encode_cards(c)
    assert "negative" not in str(e.value)
    with pytest.raises(ddz.ImpossibleHandError, match=r"counts\[1\]"):
        encode_cards(np.stack([np.zeros(15, dtype), c]))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("bad", ["x", None, -1, 1.5, True, np.float64(2.0)])
def test_threads_checked_on_every_path(impl, bad):
    S = ActionSpace(implementation=impl)
    H = np.zeros((1, 15), np.uint8)
    T = np.zeros(1, np.int32)
    with pytest.raises(ddz.DdzError, match=r"threads must be an int >= 0 \(0: "):
        S.legal_masks(H, T, threads=bad)
    with pytest.raises(ddz.DdzError, match="threads must be an int >= 0"):
        S.legal_ids_batch(H, T, threads=bad)
    for ok in (0, 1, 4, np.int64(2)):
        S.legal_masks(H, T, threads=ok)


def test_out_arguments_checked():
    with pytest.raises(ddz.HandError, match=r"uint8 array of shape \(1, 54\), got shape \(2, 54\)"):
        ddz.encode_actions([1], out=np.zeros((2, 54), np.uint8))
    with pytest.raises(ddz.HandError, match=r"got dtype int64"):
        ddz.encode_actions([1], out=np.zeros((1, 54), np.int64))
    with pytest.raises(ddz.HandError, match="not C-contiguous"):
        ddz.encode_actions([1, 2], out=np.zeros((54, 2), np.uint8).T)
    with pytest.raises(ddz.HandError, match="got list"):
        ddz.encode_actions([1], out=[[0] * 54])
    with pytest.raises(ddz.HandError, match=r"shape \(54,\), got shape \(53,\)"):
        encode_cards("33", out=np.zeros(53, np.uint8))
    ro = np.zeros(54, np.uint8)
    ro.setflags(write=False)
    with pytest.raises(ddz.HandError, match="read-only"):
        encode_cards("33", out=ro)
    S = ActionSpace(implementation="reference")
    with pytest.raises(ddz.HandError, match=r"bool array of shape \(1, 12655\), got dtype uint8"):
        S.legal_masks(np.zeros((1, 15), np.uint8), [0], out=np.zeros((1, len(S)), np.uint8))
    out = np.zeros((1, 54), np.uint8)
    assert ddz.encode_actions([1], out=out) is out and out.sum() == 1


def test_action_id_error_exported_and_to_beat_type_message():
    assert ddz.ActionIdError is ActionIdError and "ActionIdError" in ddz.__all__
    S = ActionSpace(implementation="reference")
    with pytest.raises(ddz.InvalidPlayError,
                       match="an action id, a ddz.Play, play notation or None, not bool"):
        S.legal_ids("3", to_beat=True)
    with pytest.raises(ddz.InvalidPlayError, match="an action id, a ddz.Play, play notation or None"):
        S.legal_ids("3", to_beat=1.0)
    assert S.legal_ids("4", to_beat=1).tolist() == S.legal_ids("4", to_beat="3").tolist()
