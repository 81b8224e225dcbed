"""The garbage campaign of ``test_kernel_safety.py``: every discovered callable of the
compiled modules called with garbage, in a child process that loads this file by its path
(``test_kernel_safety.campaign``) and prints ``KERNEL-SAFETY-DONE <json>``."""

import inspect
import json
import os

import numpy as np

import ddz
from kernelrun import (STRAIGHT_OF_ONE, _BadIndex, _family, _HugeLen, _SeqOf15, _Weird, discover,
                       solver_methods)


def _campaign(seed, log_path):
    """Call every discovered callable with garbage; print ``KERNEL-SAFETY-DONE <json>``.

    Three kinds of calls: wrong argument counts; "one at a time" (every argument valid
    but one, which goes through a pool of garbage for its kind: there the outcome is also
    compared with what the argument's validity says it should be); and seeded random
    combinations of garbage and valid arguments.
    """
    import collections
    import faulthandler
    import warnings

    faulthandler.enable()
    warnings.simplefilter("ignore")   # e.g. ComplexWarning from casting garbage codes
    import ddz.game._actions as actions
    import ddz.core._core as core

    rng = np.random.default_rng(seed)
    log_fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    rules_list = [ddz.Rules(), ddz.Rules(kickers="repeat"), ddz.Rules(banned={"TRIO_PAIR"})]
    tables = [ddz.core.tables.table(r) for r in rules_list]
    t_distinct, t_repeat, t_banned = tables
    # garbage built from valid parts: a table on another rule set's universe is refused
    try:
        core.RuleTable(ddz.Rules(kickers="repeat"), t_distinct)
    except ValueError:
        pass
    else:
        raise AssertionError("a RuleTable built on another rule set's universe was accepted")
    table_names = {id(t_distinct): "distinct", id(t_repeat): "repeat", id(t_banned): "banned"}
    functions, methods = discover()

    deck = ddz.core.cards.deck_counts(1)
    deck_ranks = np.repeat(np.arange(15), deck)
    limit = deck.astype(np.int64)

    def random_hand(k):
        return np.bincount(rng.permutation(deck_ranks)[:k], minlength=15).astype(np.uint8)

    stats = collections.Counter()
    excs = collections.Counter()
    surprises = []
    calls = 0

    def call(name, fn, args, labels, kwargs=None, expect=None):
        """``expect``: True (must return), False (must raise), None (either)."""
        nonlocal calls
        desc = f"{name}({', '.join(labels)}{', **' + repr(sorted(kwargs)) if kwargs else ''})"
        os.write(log_fd, (desc[:500] + "\n").encode("utf-8", "replace"))
        calls += 1
        try:
            fn(*args, **(kwargs or {}))
        except Exception as exc:   # an ordinary exception: what we want for garbage
            kind = type(exc).__name__
            excs[f"{_family(name)}: {kind}"] += 1
            if isinstance(exc, SystemError):
                surprises.append(f"SystemError: {desc}: {exc}"[:300])
            elif expect is True:
                surprises.append(f"rejected a valid call: {desc}: {kind}: {exc}"[:300])
            return
        stats["returned"] += 1
        if expect is False:
            surprises.append(f"accepted a bad argument: {desc}"[:300])

    # -- validity oracles (None: depends on the callable; used only for surprises) --
    def is_code_int(v):
        return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))

    def counts_status(t, v, max_cards):
        """True: a uint8[15] C-contiguous array of possible counts; None: possible counts
        in another form; False: not possible counts."""
        if isinstance(v, (str, bytes)):
            return False
        try:
            a = np.asarray(v)
        except Exception:
            return False
        if a.size != 15:
            return False
        vals = a.reshape(-1).astype(object)
        if a.dtype.kind not in "iuO" or not all(is_code_int(x) for x in vals):
            return False
        if any(x < 0 or x > limit[i] for i, x in enumerate(vals)):
            return False
        if max_cards is not None and sum(vals) > max_cards:
            return False
        if (isinstance(v, np.ndarray) and type(v) is np.ndarray and v.dtype == np.uint8
                and v.shape == (15,) and v.flags.c_contiguous):
            return True
        return None

    def code_status(t, v, hand=None, zero_ok=True):
        if not is_code_int(v) or not 0 <= int(v) < (1 << 63):
            return False
        i = t.index_of(int(v))
        if i < 0:
            return False
        if i == 0:
            return zero_ok
        if t.plays[i].type in t.rules.banned:
            return False
        if hand is not None and np.any(hand.astype(np.int64) + t.counts[i] > limit):
            return False
        return True

    # -- garbage --
    def scalars():
        big = [2 ** 70, -2 ** 70, 2 ** 63, 2 ** 63 - 1, -2 ** 63, -2 ** 63 - 1, 2 ** 64, -1, 2 ** 31,
               -2 ** 31 - 1]
        out = [("None", None), ("''", ""), ("'333'", "333"), ("'x'*10000", "x" * 10000),
               ("b'\\0'*15", b"\0" * 15), ("0.5", 0.5), ("nan", float("nan")), ("inf", float("inf")),
               ("-0.0", -0.0), ("True", True), ("False", False), ("0", 0), ("1", 1), ("1+2j", 1 + 2j),
               ("[]", []), ("()", ()), ("{}", {}), ("set()", set()), ("object()", object()),
               ("Ellipsis", ...), ("slice", slice(None)), ("lambda", lambda: 0), ("Rules()", ddz.Rules()),
               ("Play", t_distinct.plays[5]), ("module", np), ("iter", iter(range(15))),
               ("np.int64(-1)", np.int64(-1)), ("np.uint64(max)", np.uint64(2 ** 64 - 1)),
               ("np.uint64(2**63)", np.uint64(2 ** 63)), ("np.int8(-1)", np.int8(-1)),
               ("np.float64(1)", np.float64(1.0)), ("np.bool_(True)", np.bool_(True)),
               ("np.array(5)", np.array(5)), ("_BadIndex", _BadIndex()), ("_Weird", _Weird()),
               ("_HugeLen", _HugeLen()), ("[None]*15", [None] * 15), ("[0.0]*15", [0.0] * 15),
               ("[-1]*15", [-1] * 15), ("[2**70]*15", [2 ** 70] * 15), ("[0]*16", [0] * 16),
               ("[True]*15", [True] * 15), ("range(15)", range(15)), ("bytearray(15)", bytearray(15)),
               ("memoryview", memoryview(bytes(15))), ("[[0]*15]*3", [[0] * 15] * 3),
               ("[_BadIndex]*15", [_BadIndex()] * 15), ("table", t_repeat)]
        out += [(f"int {b}", b) for b in big]
        out += [(f"random int {i}", int(x)) for i, x in enumerate(rng.integers(-2 ** 63, 2 ** 63 - 1, 4,
                                                                             dtype=np.int64))]
        return out

    def array_zoo():
        out = []
        dtypes = [np.uint8, np.int8, np.int32, np.int64, np.uint64, np.float64, np.float16, np.bool_,
                  np.complex128, object, "U1", "datetime64[s]"]
        shapes = [(), (0,), (14,), (15,), (16,), (2, 15), (15, 1), (1, 15), (3, 14), (3, 16), (0, 15),
                  (3, 15), (2, 3, 15)]
        for dt in dtypes:
            for shape in shapes:
                try:
                    a = np.zeros(shape, dtype=dt)
                except Exception:
                    continue
                out.append((f"zeros{shape}:{np.dtype(dt).name}", a))
        for shape in [(15,), (3, 15), (0,), (2, 15)]:
            out.append((f"255s{shape}", np.full(shape, 255, np.uint8)))
            out.append((f"ones{shape}:int64", np.ones(shape, np.int64)))
            out.append((f"-1s{shape}:int64", np.full(shape, -1, np.int64)))
            out.append((f"-1s{shape}:int32", np.full(shape, -1, np.int32)))
        base = np.ones(30, np.uint8)
        out.append(("uint8[::2]", base[::2]))
        out.append(("uint8 stride 0", np.broadcast_to(np.uint8(1), (15,))))
        ro = np.ones(15, np.uint8)
        ro.setflags(write=False)
        out.append(("read-only ones(15)", ro))
        out.append(("big-endian int64[15]", np.zeros(15, ">i8")))
        out.append(("masked uint8[15]", np.ma.masked_array(np.ones(15, np.uint8))))
        out.append(("matrix uint8[1,15]", np.asmatrix(np.ones((1, 15), np.uint8))))
        out.append(("F-order uint8[3,15]", np.asfortranarray(np.ones((3, 15), np.uint8))))
        out.append(("uint8[3,30][:, ::2]", np.ones((3, 30), np.uint8)[:, ::2]))
        out.append(("uint8[6,15][::2]", np.ones((6, 15), np.uint8)[::2]))
        out.append(("deck uint8", deck.copy()))
        out.append(("deck as list", deck.tolist()))
        return out

    generic = scalars() + array_zoo()

    def hand_pool(t):
        out = list(generic)
        valid = [random_hand(k) for k in (0, 1, 5, 17, 20)]
        out += [(f"hand{int(h.sum())}", h) for h in valid]
        h17 = valid[3]
        out += [("hand17 list", h17.tolist()), ("hand17 tuple", tuple(h17.tolist())),
                ("hand17 int64", h17.astype(np.int64)), ("hand17 float", h17.astype(np.float64)),
                ("hand17 bool", h17.astype(bool)), ("hand17 object", h17.astype(object)),
                ("hand17 np.uint8 list", list(h17)), ("hand17 _SeqOf15", _SeqOf15(h17.tolist())),
                ("hand17 (15,1)", h17.reshape(15, 1).copy()), ("hand17 (1,15)", h17.reshape(1, 15).copy()),
                ("hand17 [::2]", np.repeat(h17, 2)[::2]), ("hand17 (3,5)", h17.reshape(3, 5).copy())]
        ro = h17.copy()
        ro.setflags(write=False)
        out.append(("hand17 read-only", ro))
        for r, c in [(0, 5), (13, 2), (14, 2), (12, 8), (0, 255)]:
            h = h17.copy()
            h[r] = c
            out.append((f"hand17 rank{r}={c}", h))
        h21 = random_hand(21)
        out += [("hand21", h21), ("hand54", deck.copy()), ("hand54 list", deck.tolist()),
                ("hand17 neg list", [-1] + h17.tolist()[1:]), ("hand17 2**70", [2 ** 70] + h17.tolist()[1:]),
                ("hand17 np.int64(-1)", [np.int64(-1)] + h17.tolist()[1:]),
                ("hand17 float elt", [0.0] + h17.tolist()[1:]), ("hand17 None elt", [None] + h17.tolist()[1:])]
        return out

    def code_pool(t, hand):
        out = [(lbl, v) for lbl, v in generic if not isinstance(v, np.ndarray) or v.ndim == 0]
        ids = rng.integers(1, len(t), 12)
        for i in ids:
            c = int(t.codes[i])
            out += [(f"code#{i}", c), (f"code#{i} np.int64", np.int64(c)), (f"code#{i} np.uint64", np.uint64(c)),
                    (f"code#{i}+kick overflow", c + 7), (f"code#{i}|bit62", c | (1 << 62)),
                    (f"code#{i} float", float(c)), (f"code#{i} str", str(c)), (f"-code#{i}", -c)]
        # plays that fit beside the hand, so a pool has accepted calls too
        fit = [i for i in range(1, len(t)) if not np.any(hand.astype(np.int64) + t.counts[i] > limit)]
        for i in rng.choice(fit, 8, replace=False):
            out.append((f"fitting code#{i}", int(t.codes[i])))
        out += [("STRAIGHT of 1", STRAIGHT_OF_ONE), ("-STRAIGHT of 1", -STRAIGHT_OF_ONE),
                ("type 31", 31 << 57), ("type 15", 15 << 57),
                ("rocket width 2", (14 << 57) | (2 << 53) | (1 << 49) | (14 << 45)),
                ("bomb width 8", (13 << 57) | (8 << 53) | (1 << 49)),
                ("bomb width 15", (13 << 57) | (15 << 53) | (1 << 49) | (12 << 45)),
                ("straight len 15", (6 << 57) | (1 << 53) | (15 << 49) | (14 << 45))]
        out += [(f"random62 {i}", int(x)) for i, x in enumerate(rng.integers(0, 2 ** 62, 10, dtype=np.int64))]
        out += [(f"random64 {i}", int(x)) for i, x in enumerate(rng.integers(-2 ** 63, 2 ** 63 - 1, 6, dtype=np.int64))]
        for other in tables:
            if other is not t:
                out += [(f"{table_names[id(other)]} code#{i}", int(other.codes[i]))
                        for i in rng.integers(1, len(other), 4)]
        banned = [i for i, p in enumerate(t_banned.plays) if p.type in t_banned.rules.banned]
        out += [(f"banned-type code#{i}", int(t.codes[i])) for i in rng.choice(banned, 3) if i < len(t)]
        return out

    B = 3

    def batch_hands(n):
        return np.stack([random_hand(int(k)) for k in rng.integers(0, 21, n)]) if n else np.zeros((0, 15), np.uint8)

    def hands_status(t, v):
        """Batch hands with the baseline's row count: True for uint8[B, 15] C-contiguous
        possible hands; None for the same as bool (the buffer protocol takes bool for
        uint8: the batch kernels accept a bool array as 0/1 counts, which the one-hand
        methods refuse); False otherwise."""
        if type(v) is not np.ndarray or v.shape != (B, 15) or not v.flags.c_contiguous:
            return False
        if v.dtype == np.bool_:
            return None
        if v.dtype != np.uint8 or np.any(v.astype(np.int64) > limit):
            return False
        if np.any(v.sum(axis=1, dtype=np.int64) > t.rules.max_hand):
            return False
        return True

    def hands_pool(t):
        hv = batch_hands(B)
        ro = hv.copy()
        ro.setflags(write=False)
        bad_row = hv.copy()
        bad_row[-1, 13] = 2
        over = hv.copy()
        over[-1] = random_hand(21)
        out = [(lbl, v, hands_status(t, v)) for lbl, v in generic]
        out += [("hands valid", hv, True), ("hands read-only", ro, True), ("hands last row 2 jokers", bad_row, False),
                ("hands last row 21 cards", over, False), ("hands 255s", np.full((B, 15), 255, np.uint8), False),
                ("hands deck rows", np.tile(deck, (B, 1)), False), ("hands (4,15)", batch_hands(4), False),
                ("hands (0,15)", np.zeros((0, 15), np.uint8), False), ("hands (2,15)", batch_hands(2), False),
                ("hands (3,14)", hv[:, :14].copy(), False), ("hands (3,16)", np.zeros((B, 16), np.uint8), False),
                ("hands (15,)", hv[0].copy(), False), ("hands (1,3,15)", hv[None].copy(), False),
                ("hands int64", hv.astype(np.int64), False), ("hands int8", hv.astype(np.int8), False),
                ("hands bool", hv.astype(bool), None), ("hands float", hv.astype(float), False),
                ("hands object", hv.astype(object), False), ("hands list", hv.tolist(), False),
                ("hands F-order", np.asfortranarray(hv), False),
                ("hands [:, ::2]", np.repeat(hv, 2, axis=1)[:, ::2], False),
                ("hands [::2]", np.repeat(hv, 2, axis=0)[::2], False),
                ("hands stride-0 rows", np.broadcast_to(hv[0], (B, 15)), False)]
        return out

    def beatcodes_pool(t, hands):
        fit = []
        for h in hands:
            ok = [i for i in range(1, len(t)) if code_status(t, int(t.codes[i]), h)]
            fit.append(int(t.codes[rng.choice(ok)]))
        fit = np.array(fit, np.int64)
        ro = np.zeros(B, np.int64)
        ro.setflags(write=False)
        out = [(lbl, v, False) for lbl, v in generic if not (isinstance(v, np.ndarray) and v.dtype == np.int64
                                                             and v.shape == (B,) and not v.any())]
        out += [("tbc zeros", np.zeros(B, np.int64), True), ("tbc fitting", fit, True),
                ("tbc read-only zeros", ro, True),
                ("tbc (4,)", np.zeros(4, np.int64), False), ("tbc (0,)", np.zeros(0, np.int64), False),
                ("tbc (3,1)", np.zeros((B, 1), np.int64), False), ("tbc int32", np.zeros(B, np.int32), False),
                ("tbc uint64", np.zeros(B, np.uint64), None), ("tbc float", np.zeros(B), False),
                ("tbc object", np.zeros(B, object), False), ("tbc list", [0] * B, False),
                ("tbc big-endian", np.zeros(B, ">i8"), None), ("tbc [::2]", np.zeros(2 * B, np.int64)[::2], False),
                ("tbc STRAIGHT of 1", np.full(B, STRAIGHT_OF_ONE, np.int64), False),
                ("tbc -1", np.full(B, -1, np.int64), False), ("tbc int64 min", np.full(B, -2 ** 63, np.int64), False),
                ("tbc random62", rng.integers(0, 2 ** 62, B, dtype=np.int64), False),
                ("tbc random64", rng.integers(-2 ** 63, 2 ** 63 - 1, B, dtype=np.int64), False)]
        last_bad = fit.copy()
        last_bad[-1] = STRAIGHT_OF_ONE
        out.append(("tbc last row bad", last_bad, False))
        return out

    def tbids_pool(t, hands):
        n = len(t)
        fit = []
        for h in hands:
            ok = [i for i in range(1, n) if code_status(t, int(t.codes[i]), h)]
            fit.append(int(rng.choice(ok)))
        ro = np.zeros(B, np.int32)
        ro.setflags(write=False)
        banned = [i for i, p in enumerate(t.plays) if p.type in t.rules.banned]
        out = [(lbl, v, False) for lbl, v in generic if not (isinstance(v, np.ndarray) and v.dtype == np.int32
                                                             and v.shape == (B,) and not v.any())]
        out += [("ids zeros", np.zeros(B, np.int32), True), ("ids fitting", np.array(fit, np.int32), True),
                ("ids read-only", ro, True), ("ids -1", np.full(B, -1, np.int32), False),
                ("ids len(t)", np.full(B, n, np.int32), False),
                ("ids int32 max", np.full(B, 2 ** 31 - 1, np.int32), False),
                ("ids int32 min", np.full(B, -2 ** 31, np.int32), False), ("ids (4,)", np.zeros(4, np.int32), False),
                ("ids (0,)", np.zeros(0, np.int32), False), ("ids int64", np.zeros(B, np.int64), False),
                ("ids uint32", np.zeros(B, np.uint32), None), ("ids [::2]", np.zeros(2 * B, np.int32)[::2], False),
                ("ids (3,1)", np.zeros((B, 1), np.int32), False), ("ids list", [0] * B, False),
                ("ids big-endian", np.zeros(B, ">i4"), None)]
        if banned:
            out.append(("ids banned", np.full(B, banned[0], np.int32), False))
        return out

    def mask_pool(t):
        n = len(t)
        ro = np.zeros((B, n), bool)
        ro.setflags(write=False)
        out = [(lbl, v, False) for lbl, v in generic]
        out += [("mask ok", np.zeros((B, n), bool), True), ("mask read-only", ro, False),
                ("mask (3,n-1)", np.zeros((B, n - 1), bool), False),
                ("mask (3,n+1)", np.zeros((B, n + 1), bool), False),
                ("mask (4,n)", np.zeros((4, n), bool), False), ("mask (n,)", np.zeros(n, bool), False),
                ("mask F-order", np.zeros((B, n), bool, order="F"), False),
                ("mask [:, ::2]", np.zeros((B, 2 * n), bool)[:, ::2], False),
                ("mask uint8", np.zeros((B, n), np.uint8), False), ("mask int64", np.zeros((B, n), np.int64), False),
                ("mask object", np.zeros((B, n), object), False), ("mask list", [[False] * n] * B, False),
                ("mask (1,3,n)", np.zeros((1, B, n), bool), False)]
        return out

    threads_pool = [("threads 0", 0, True), ("threads 1", 1, True), ("threads 2", 2, True), ("threads -1", -1, True),
                    ("threads 10**6", 10 ** 6, True), ("threads 2**31", 2 ** 31, False),
                    ("threads 2**70", 2 ** 70, False), ("threads None", None, False),
                    ("threads nan", float("nan"), False), ("threads '2'", "2", False),
                    ("threads 1.5", 1.5, False), ("threads True", True, False),
                    ("threads np.int64(2)", np.int64(2), True)]
    table_pool = ([(f"table {table_names[id(t)]}", t, None) for t in tables]
                  + [(lbl, v, False) for lbl, v in scalars() if not isinstance(v, core.RuleTable)])

    def boolish(v):
        try:
            a = np.asarray(v)
        except Exception:
            return False
        return a.dtype == np.bool_ and a.size == 15

    def id_status(t, v):
        if not is_code_int(v) or not 0 <= int(v) < len(t):
            return False
        return True if int(v) == 0 else None     # others: whether the play fits beside the hand

    # -- per table: valid baselines and garbage pools by parameter --
    def setup(t):
        h = random_hand(17)
        hb = batch_hands(B)
        plays = [i for i in range(1, len(t)) if code_status(t, int(t.codes[i]))]
        a_code, b_code = (int(t.codes[i]) for i in rng.choice(plays, 2))
        hp = hand_pool(t)
        cp = code_pool(t, h)
        return {
            # name: (baseline, [(label, value, expected ok)])
            "hand": (h, [(lbl, v, counts_status(t, v, t.rules.max_hand)) for lbl, v in hp]),
            "cards": (h, [(lbl, v, counts_status(t, v, None)) for lbl, v in hp]),
            "to_beat_code": (0, [(lbl, v, code_status(t, v, h)) for lbl, v in cp]),
            "code": (0, [(lbl, v, None) for lbl, v in cp]),
            "a": (a_code, [(lbl, v, code_status(t, v)) for lbl, v in cp]),
            "b": (b_code, [(lbl, v, code_status(t, v, zero_ok=False)) for lbl, v in cp]),
            "hands": (hb, hands_pool(t)),
            "to_beat_codes": (np.zeros(B, np.int64), beatcodes_pool(t, hb)),
            "tbs": (np.zeros(B, np.int32), tbids_pool(t, hb)),
            "to_beat_id": (0, [(lbl, v, id_status(t, v)) for lbl, v in cp]
                           + [("id 0", 0, True), ("id 1", 1, None), ("id n-1", len(t) - 1, None),
                              ("id n", len(t), False), ("id np.int32(1)", np.int32(1), None)]),
            "mask_arr": (np.zeros((B, len(t)), bool), mask_pool(t)),
            "threads": (1, threads_pool),
            "table": (t, table_pool),
            "codes": (t.codes[:50].copy(), [(lbl, v, None) for lbl, v in generic + cp]),
            "text": ("333444+56", [(lbl, v, None) for lbl, v in generic]),
        }

    setups = {id(t): setup(t) for t in tables}
    unknown = (0, [(lbl, v, None) for lbl, v in generic])

    def per_param(t, pname, fname):
        s = setups[id(t)]
        base, pool = s.get(pname, unknown)
        if pname == "hand" and fname.endswith(".fits"):
            base, pool = s["cards"]      # fits: counts within the deck, any number
        if pname == "code" and fname.endswith(".fits"):
            pool = [(lbl, v, None) for lbl, v, _ in pool]
        if pname == "hand" and "legal_ids_one" in fname:
            # like the batches, it takes a bool array (any shape of 15) as 0/1 counts
            pool = [(lbl, v, None if ok is False and boolish(v) else ok) for lbl, v, ok in pool]
        return base, pool

    # strict callables: a bad argument must raise, a valid one must not; the documented
    # "never raises" ones must return for any argument (of the right count)
    lenient = {"hand_ok", "index_of", "ids_of_codes", "type_properties", "RuleTable"}
    never_raises = {"hand_ok", "index_of"}

    def targets():
        """``(name, callable, parameters, table for baselines)``."""
        out = []
        for t in tables:
            tn = table_names[id(t)]
            for mname in methods:
                bound = getattr(t, mname)
                params = list(inspect.signature(bound).parameters.values())
                out.append((f"RuleTable[{tn}].{mname}", bound, params, t))
        for fname, fn in functions.items():
            if inspect.isclass(fn):
                continue     # the constructor: below
            try:
                params = list(inspect.signature(fn).parameters.values())
            except (TypeError, ValueError):
                params = None
            for t in tables:
                out.append((f"{fname}[{table_names[id(t)]}]", fn, params, t))
        return out

    for name, fn, params, t in targets():
        short = name.rsplit(".", 1)[-1].split("[")[0]
        strict = short not in lenient
        if params is None:      # no signature: garbage of every arity
            for n in range(5):
                for _ in range(20):
                    picks = [generic[rng.integers(len(generic))] for _ in range(n)]
                    call(name, fn, [v for _, v in picks], [lbl for lbl, _ in picks])
            continue
        names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        required = sum(1 for p in params if p.default is p.empty
                       and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
        varargs = any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)
        baselines = [per_param(t, pn, name)[0] for pn in names]
        pools = [per_param(t, pn, name)[1] for pn in names]
        # wrong argument counts, and an unknown keyword
        for n in range(len(names) + 3):
            args = (baselines + [0, 0, 0])[:n]
            bad = not varargs and (n < required or n > len(names))
            call(name, fn, args, [f"arg{i}" for i in range(n)], expect=False if bad else None)
        if not varargs:
            call(name, fn, baselines, ["valid"] * len(names), kwargs={"bogus": 1}, expect=False)
        # the valid call itself
        call(name, fn, baselines, ["valid"] * len(names), expect=True if strict else None)
        # one garbage argument at a time
        for i, pool in enumerate(pools):
            for lbl, v, ok in pool:
                args = list(baselines)
                args[i] = v
                labels = ["valid"] * len(names)
                labels[i] = lbl
                call(name, fn, args, labels, expect=True if short in never_raises else ok if strict else None)
        # seeded random combinations
        if names:
            _random_mixes(call, rng, name, fn, baselines, pools, 60 * len(names), 0.3)

    # the module-level classes (the RuleTable constructor): garbage only, no new universe
    for fname, cls in functions.items():
        if not inspect.isclass(cls):
            continue
        for lbl, v in generic:
            if not isinstance(v, ddz.Rules):
                call(fname, cls, [v], [lbl])
            call(fname, cls, [ddz.Rules(), v], ["Rules()", lbl])
        call(fname, cls, [], [])
        call(fname, cls, [ddz.Rules(), t_distinct, 1], ["Rules()", "base", "1"])
        call(fname, cls, [ddz.Rules(banned={"TRIO_PAIR"})], ["Rules(banned)"], kwargs={"base": t_distinct})

    # batches big enough for the OpenMP path (>= 256 rows), with a bad last row too
    big = 300
    for t in tables:
        tn = table_names[id(t)]
        hb = batch_hands(big)
        zeros32, zeros64 = np.zeros(big, np.int32), np.zeros(big, np.int64)
        bad = hb.copy()
        bad[-1, 14] = 3
        for threads in (0, 1, 2, -1):
            call(f"legal_masks[{tn}] big", actions.legal_masks,
                 [t, hb, zeros32, np.zeros((big, len(t)), bool), threads],
                 ["big", "zeros", "mask", str(threads)], expect=True)
            call(f"legal_ids_csr[{tn}] big", actions.legal_ids_csr, [t, hb, zeros32, threads],
                 ["big", "zeros", str(threads)], expect=True)
            call(f"legal_masks[{tn}] big bad", actions.legal_masks,
                 [t, bad, zeros32, np.zeros((big, len(t)), bool), threads],
                 ["big bad row", "zeros", "mask", str(threads)], expect=False)
            call(f"legal_ids_csr[{tn}] big bad", actions.legal_ids_csr, [t, bad, zeros32, threads],
                 ["big bad row", "zeros", str(threads)], expect=False)
        call(f"legal_codes_batch[{tn}] big", t.legal_codes_batch, [hb, zeros64], ["big", "zeros"], expect=True)
        call(f"count_legal_batch[{tn}] big", t.count_legal_batch, [bad, zeros64], ["big bad row", "zeros"],
             expect=False)

    _solver_campaign(call, rng, generic, random_hand)

    os.close(log_fd)
    summary = {"calls": calls, "returned": stats["returned"], "surprises": surprises,
               "exceptions": dict(sorted(excs.items())), "functions": sorted(functions),
               "methods": sorted(methods), "solver_methods": sorted(solver_methods())}
    print("KERNEL-SAFETY-DONE " + json.dumps(summary), flush=True)


def _random_mixes(call, rng, name, fn, baselines, pools, count, p_valid):
    """``count`` calls of ``fn``, each argument its valid baseline with probability
    ``p_valid``, else a value drawn from its garbage pool."""
    for _ in range(count):
        args, labels = [], []
        for i, pool in enumerate(pools):
            if rng.random() < p_valid:
                args.append(baselines[i])
                labels.append("valid")
            else:
                lbl, v, _ = pool[rng.integers(len(pool))]
                args.append(v)
                labels.append(lbl)
        call(name, fn, args, labels)


def _solver_campaign(call, rng, generic, random_hand):
    """``ddz.search._solver.Searcher``'s methods with garbage: each call on a searcher reset to
    a small valid problem first (so that any valid call returns at once), the arguments
    valid but one, then seeded random mixes; and a searcher never reset, a helper
    searcher, and a searcher helping itself or garbage."""
    import ddz.search._solver as solver

    rules = ddz.Rules()
    small = [[int(x) for x in random_hand(4)], [int(x) for x in random_hand(4)]]
    while any(a + b > (4 if r < 13 else 1) for r, (a, b) in enumerate(zip(*small))):
        small = [[int(x) for x in random_hand(4)], [int(x) for x in random_hand(4)]]
    three = [[1] + [0] * 14, [0, 1] + [0] * 13, [0, 0, 1] + [0] * 12]
    s = solver.Searcher(1)
    base_reset = (rules, 2, 0, False)
    seats = [("seat 0", 0, True), ("seat 1", 1, True), ("seat 2", 2, False), ("seat -1", -1, False),
             ("seat -10**6", -10 ** 6, False), ("seat 10**6", 10 ** 6, False), ("seat 2**31", 2 ** 31, False)]
    hands_pool = [(lbl, v, None) for lbl, v in generic] + [
        ("small", small, True), ("three", three, False), ("one hand", small[:1], False),
        ("hand of 21", [[int(x) for x in random_hand(21)], small[1]], False),
        ("deck twice", [[4] * 13 + [1, 1]] * 2, False), ("empty hand", [[0] * 15, small[1]], None),
        ("counts 5", [[5] + [0] * 14, small[1]], False), ("(2,15) array", np.array(small, np.uint8), True),
        ("hands _Weird", [_Weird(), small[1]], False)]
    code_pool = [(lbl, v, None) for lbl, v in generic if not isinstance(v, np.ndarray)] + [
        ("pass", 0, True), ("STRAIGHT of 1", STRAIGHT_OF_ONE, False), ("code -1", -1, False),
        ("type 31", 31 << 57, False), ("straight len 15", (6 << 57) | (1 << 53) | (15 << 49) | (14 << 45), False),
        ("random62", int(rng.integers(0, 2 ** 62)), False)]
    limit_pool = [(lbl, v, None) for lbl, v in generic if not isinstance(v, np.ndarray)] + [
        ("None", None, True), ("1000", 1000, True), ("2**63", 2 ** 63, None), ("-1", -1, False)]
    pools = {
        "hands": (small, hands_pool), "to_move": (0, seats), "seat": (0, seats),
        "to_beat": (0, code_pool),
        "last": (-1, [(lbl, v, ok) for lbl, v, ok in seats if v != -1] + [("last -1", -1, True)]),
        "landlord_plays": (0, [(lbl, v, None) for lbl, v in generic] + [("2**70", 2 ** 70, True)]),
        "farmers_played": (False, [(lbl, v, None) for lbl, v in generic]),
        "all_moves": (False, [(lbl, v, None) for lbl, v in generic]),
        "node_limit": (None, limit_pool), "time_limit": (0.0, limit_pool),
        "alpha": (-1, [(lbl, v, None) for lbl, v in generic]), "beta": (1, [(lbl, v, None) for lbl, v in generic]),
        "release": (False, [(lbl, v, None) for lbl, v in generic]),
        "rules": (rules, [(lbl, v, None) for lbl, v in generic] + [("four-player rules", ddz.Rules(players=4), False)]),
        "seats": (2, [(lbl, v, None) for lbl, v in generic] + [("seats 3", 3, True), ("seats 4", 4, False)]),
        "landlord": (0, seats), "score": (False, [(lbl, v, None) for lbl, v in generic]),
        "entries": (0, [(lbl, v, None) for lbl, v in generic]),
        "features": (3, [(lbl, v, None) for lbl, v in generic]),
        "fn": (None, [(lbl, v, None) for lbl, v in generic]),
        "main": (solver.Searcher(1), [(lbl, v, None) for lbl, v in generic] + [("self", s, False)]),
        "pos": (ddz.Position(small), [(lbl, v, None) for lbl, v in generic] + [
            ("over", ddz.Position([small[0], [0] * 15]), False)]),
        "positions": ([ddz.Position(small)], [(lbl, v, None) for lbl, v in generic] + [
            ("[over]", [ddz.Position([small[0], [0] * 15])], True), ("[1]", [1], False)]),
        "pv_max": (120, [(lbl, v, None) for lbl, v in generic] + [("-1", -1, False), ("121", 121, False)]),
        "t0": (0.0, [(lbl, v, None) for lbl, v in generic]),
        "over_fn": (lambda p: None, [(lbl, v, None) for lbl, v in generic]),
    }
    for mname, unbound in sorted(solver_methods().items()):
        params = [p for p in list(inspect.signature(unbound).parameters.values())[1:]
                  if p.kind == p.POSITIONAL_OR_KEYWORD]
        names = [p.name for p in params]
        baselines = [pools[n][0] if n in pools else 0 for n in names]
        garbage = [pools[n][1] if n in pools else [(lbl, v, None) for lbl, v in generic] for n in names]

        def run(*args, _m=mname, **kwargs):
            if _m != "reset":
                s.reset(*base_reset)
            return getattr(s, _m)(*args, **kwargs)

        name = f"Searcher.{mname}"
        call(name, run, baselines, ["valid"] * len(names), expect=None if mname == "help" else True)
        call(name, run, baselines + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], ["too many"], expect=False)
        for i, pool in enumerate(garbage):
            for lbl, v, ok in pool:
                args = list(baselines)
                args[i] = v
                labels = ["valid"] * len(names)
                labels[i] = lbl
                call(name, run, args, labels, expect=ok if ok is False else None)
        _random_mixes(call, rng, name, run, baselines, garbage, 40 * max(1, len(names)), 0.4)
    # never reset; a helper (no table of its own); the crashes of issue 26
    fresh, helper = solver.Searcher(1), solver.Searcher(0)
    for obj, lbl in ((fresh, "fresh"), (helper, "helper")):
        call(f"Searcher[{lbl}].solve", obj.solve, [small, 0, 0, -1, 0, False], ["small"], expect=False)
        call(f"Searcher[{lbl}].ordered_moves", obj.ordered_moves, [small, 0, 0, -1], ["small"], expect=False)
        call(f"Searcher[{lbl}].value", obj.value, [small, 0, 0, -1, 0, False], ["small"], expect=False)
    call("Searcher.help(self)", s.help, [s], ["self"], expect=False)
    call("Searcher[helper].reset", helper.reset, list(base_reset), ["valid"], expect=False)
    call("Searcher(None, 1)", solver.Searcher, [None, 1], ["None", "1"], expect=False)
    s.reset(*base_reset)
    call("Searcher.ordered_moves(-10**6)", s.ordered_moves, [small, -10 ** 6, 0, -1], ["-10**6"], expect=False)
    for v in (0, 0.5, -1, float("nan"), float("inf"), 2 ** 21, None, "1"):
        call("Table", solver.Table, [v], [repr(v)], expect=False)
        call("Searcher", solver.Searcher, [v], [repr(v)], expect=True if v == 0 else False)
