"""The endgame solver (issue 12): pinned puzzles, the search against the reference
minimax, limits that answer "unknown", thread-count independence, score mode on
hand-checked cases, banned play types, and Position's validation and text form.

Runs in both legs: under ``DDZ_NO_EXTENSIONS=1`` ``ddz.solve`` is the reference
minimax (with a memo), and refuses big positions without a limit."""

import json
import os
import pathlib

import numpy as np
import pytest

import ddz
from ddz import REPEAT_KICKERS as REPEAT, STANDARD, Position, PlayType, solve
from ddz.errors import DdzError, HandError, ImpossibleHandError, IllegalActionError, InvalidPlayError
from ddz.search.reference_solver import ref_solve
from ddz.search.solver import PURE_PYTHON_MAX_CARDS
from conftest import CARDS, NO_EXTENSIONS, RULE_IDS, RULESETS

PUZZLES = json.loads((pathlib.Path(__file__).parent.parent / "data" / "endgame_puzzles.json")
                     .read_text(encoding="utf-8"))["puzzles"]


def _too_big(pos):
    return NO_EXTENSIONS and sum(pos.cards_left) > PURE_PYTHON_MAX_CARDS


# -- the pinned puzzles --------------------------------------------------------------

# the pure-Python leg re-solves the children with the reference minimax: one kicker rule
@pytest.mark.parametrize("rules", RULESETS[:1] if NO_EXTENSIONS else RULESETS,
                         ids=RULE_IDS[:1] if NO_EXTENSIONS else RULE_IDS)
@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p["name"] for p in PUZZLES])
def test_pinned_puzzle(puzzle, rules):
    pos = Position([puzzle["first"], puzzle["second"]], rules=rules)
    if _too_big(pos):
        with pytest.raises(DdzError, match="DDZ_NO_EXTENSIONS"):
            solve(pos)
        return
    sol = solve(pos)
    assert sol.exact and sol.win is puzzle["first_wins"] and sol.landlord_wins is puzzle["first_wins"]
    if puzzle["first_wins"]:
        # the reported move must leave the second player lost: re-solve that child
        (move,) = sol.moves
        assert move in pos.legal_moves()
        child = solve(pos.after(move))
        assert child.exact and child.landlord_wins is True and child.win is False
        assert sol.pv[0] == move
    else:
        # nothing wins: every child is a loss for the first mover
        assert sol.moves == []
        for move in pos.legal_moves():
            assert solve(pos.after(move)).landlord_wins is False


# positions where a well-known C++ solver (YunyanDeng/doudizhu_endgame) errs and an
# independent exhaustive search agrees with ddz (../shared/solver/README.md)
@pytest.mark.parametrize("rules", [RULESETS[0], pytest.param(RULESETS[1], marks=pytest.mark.slow)], ids=RULE_IDS)
@pytest.mark.parametrize("landlord, farmer, landlord_wins", [
    ("3345689JJJKAA2", "45789TTQKKKAA2", True),
    ("34555799TTJJAB", "334667889TJQQR", False),
    ("346667789TTJQK", "4456779JJQKAA2", True),
])
def test_where_a_cpp_solver_errs(landlord, farmer, landlord_wins, rules):
    pos = Position([landlord, farmer], rules=rules)
    if _too_big(pos):
        pytest.skip("28 cards: too many for the pure-Python fallback without a limit")
    sol = solve(pos)
    assert sol.exact and sol.landlord_wins is landlord_wins
    end = _replay(pos, sol.pv)
    assert end.over and end.landlord_wins is landlord_wins


def _replay(pos, pv):
    """Play a principal variation out; it must be legal and end the hand."""
    for move in pv:
        assert move in pos.legal_moves()
        pos = pos.after(move)
    return pos


@pytest.mark.parametrize("puzzle", [p for p in PUZZLES if p["name"] in ("WZ1", "WZ2", "WZ3", "hupu")],
                         ids=lambda p: p["name"])
def test_principal_variation_is_legal_and_ends_as_predicted(puzzle):
    pos = Position([puzzle["first"], puzzle["second"]])
    sol = solve(pos)
    end = _replay(pos, sol.pv)
    assert end.over and end.landlord_wins is sol.landlord_wins


# -- against the reference minimax ------------------------------------------------------

def _random_position(rng, seats, rules, max_cards):
    """A random legal position of ``seats`` non-empty hands, ``max_cards`` cards or fewer
    in all, leading or responding to a play formed from the unseen cards."""
    while True:
        deck = rng.permutation(CARDS)
        sizes = [int(rng.integers(1, max_cards // seats + 2)) for _ in range(seats)]
        if sum(sizes) > max_cards:
            continue
        hands, at = [], 0
        for k in sizes:
            hands.append(np.bincount(deck[at:at + k], minlength=15))
            at += k
        rest = np.bincount(deck[at:], minlength=15)
        landlord = int(rng.integers(seats))
        to_move = int(rng.integers(seats))
        to_beat = last = None
        if rng.random() < 0.5:
            plays = [p for p in ddz.all_plays(rules)[:4000] if all(c <= r for c, r in zip(p.counts, rest))]
            if plays:
                to_beat = plays[int(rng.integers(len(plays)))]
                last = int((to_move + int(rng.integers(1, seats))) % seats)
        return Position([h.tolist() for h in hands], landlord=landlord, to_move=to_move,
                        to_beat=to_beat, last_player=last, rules=rules,
                        landlord_plays=int(rng.integers(0, 3)), farmers_played=bool(rng.random() < 0.5))


def _reference(pos, score):
    return ref_solve(pos.hands, pos.landlord, pos.to_move, pos.to_beat, pos.last_player, pos.rules,
                     score=score, landlord_plays=pos.landlord_plays, farmers_played=pos.farmers_played)


@pytest.mark.crosscheck
@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
@pytest.mark.parametrize("seats", [2, 3])
def test_solver_agrees_with_reference_minimax(seats, rules):
    rng = np.random.default_rng(1200 + seats + 10 * (rules is REPEAT))
    for _ in range(12 if NO_EXTENSIONS else 60):   # pure Python: the fallback is the reference
        pos = _random_position(rng, seats, rules, 9 if seats == 3 else 7)
        ref = _reference(pos, False)
        sol = solve(pos, all_moves=True)
        assert sol.exact
        assert sol.landlord_wins is (ref.value > 0), str(pos)
        mover_wins = (ref.value > 0) == (pos.to_move == pos.landlord)
        assert sol.win is mover_wins
        assert sol.moves == (ref.best if mover_wins else []), str(pos)


@pytest.mark.crosscheck
@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
@pytest.mark.parametrize("seats", [2, 3])
def test_score_mode_agrees_with_reference_minimax(seats, rules):
    rng = np.random.default_rng(1300 + seats + 10 * (rules is REPEAT))
    for _ in range(8 if NO_EXTENSIONS else 30):
        pos = _random_position(rng, seats, rules, 8 if seats == 3 else 7)
        ref = _reference(pos, True)
        sol = solve(pos, score=True, all_moves=True)
        assert sol.exact and sol.value == ref.value * pos.base * pos.multiplier, str(pos)
        assert sol.moves == ref.best, str(pos)
        # the principal variation is a legal line that reaches that score
        end = _replay(pos, sol.pv)
        assert end.over and end.final_score() == sol.value


@pytest.mark.skipif(NO_EXTENSIONS, reason="the compiled search's optional pruning")
@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_score_mode_hands_plus_or_minus_one_to_the_win_search(monkeypatch, rules):
    """Where neither spring can happen any more and no hand holds a bomb or the rocket,
    the score is +1 or -1 (RULES.md §6) and score mode asks the win-mode search
    (FEAT_WIN_IN_SCORE): value, winning moves and line equal the plain score search's, on
    dealt 6/6/6 hands (where it happens deep in the tree) and on positions past both
    springs (at the root)."""
    import ddz.search.solver as S
    rng = np.random.default_rng(1500 + 10 * (rules is REPEAT))
    positions = []
    for _ in range(6):
        deck = rng.permutation(CARDS)
        hands = [np.bincount(deck[k:k + 6], minlength=15).tolist() for k in (0, 6, 12)]
        positions.append(Position(hands, rules=rules))
        positions.append(Position(hands, rules=rules, to_move=1, landlord_plays=2, farmers_played=True))
    fewer, default = 0, S._FEATURES
    assert default & 256
    for pos in positions:
        answers, nodes = set(), []
        for bits in (default, default & ~256):
            monkeypatch.setattr(S, "_FEATURES", bits)
            sol = solve(pos, score=True, all_moves=True)
            assert sol.exact
            answers.add((sol.value, tuple(sol.moves), tuple(sol.pv)))
            nodes.append(sol.nodes)
        assert len(answers) == 1, str(pos)
        fewer += nodes[0] < nodes[1]
    assert fewer >= len(positions) // 2          # the win-mode path did run


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
@pytest.mark.parametrize("seats", [2, 3])
@pytest.mark.parametrize("score", [False, True])
def test_solver_agrees_with_reference_minimax_many(seats, rules, score):
    """The big run: 1000 random positions per case, up to 10 (three seats) or 8 cards."""
    rng = np.random.default_rng(1400 + seats + 10 * (rules is REPEAT) + 100 * score)
    for _ in range(1000):
        pos = _random_position(rng, seats, rules, 10 if seats == 3 else 8)
        ref = _reference(pos, score)
        sol = solve(pos, score=score, all_moves=True)
        assert sol.exact and sol.landlord_wins is (ref.value > 0), str(pos)
        if score:
            assert sol.value == ref.value * pos.base * pos.multiplier and sol.moves == ref.best, str(pos)
        else:
            mover_wins = (ref.value > 0) == (pos.to_move == pos.landlord)
            assert sol.moves == (ref.best if mover_wins else []), str(pos)


# -- limits, threads --------------------------------------------------------------------

def _wz(name):
    p = next(p for p in PUZZLES if p["name"] == name)
    return Position([p["first"], p["second"]])


def test_node_and_time_limits_answer_unknown():
    pos = _wz("WZ8")
    for kw in ({"node_limit": 1000}, {"time_limit": 1e-4}, {"node_limit": 1000, "threads": 2}):
        sol = solve(pos, **kw)
        assert not sol.exact
        assert sol.win is None and sol.landlord_wins is None and sol.value is None
        assert sol.moves == [] and sol.pv == []
    # and a table too small to hold much still gives the exact answer
    if NO_EXTENSIONS:     # the pure-Python fallback refuses 25 cards without a limit
        with pytest.raises(DdzError, match="DDZ_NO_EXTENSIONS"):
            solve(pos, table_mb=1)
    else:
        assert solve(pos, table_mb=1).win is True


def test_limits_in_the_pure_python_leg_too():
    pos = Position(["3579JK", "468TQA"])
    sol = solve(pos, node_limit=3)
    assert not sol.exact and sol.win is None


@pytest.mark.parametrize("score", [False, True])
@pytest.mark.parametrize("all_moves", [False, True])
def test_thread_count_does_not_change_the_answer(score, all_moves):
    rng = np.random.default_rng(77)
    size = 8 if NO_EXTENSIONS else 12      # the pure-Python fallback is slow
    positions = [_wz("WZ2"), _wz("WZ3")] + [_random_position(rng, 3, STANDARD, size) for _ in range(6)]
    for pos in positions:
        answers = set()
        for threads in (1, 2) if NO_EXTENSIONS else (1, 2, 3):      # pure Python: one thread anyway
            sol = solve(pos, score=score, all_moves=all_moves, threads=threads)
            assert sol.exact
            answers.add((sol.win, sol.landlord_wins, sol.value, tuple(sol.moves), tuple(sol.pv)))
        assert len(answers) == 1, str(pos)


@pytest.mark.skipif(NO_EXTENSIONS, reason="helper threads are the compiled search's")
@pytest.mark.parametrize("score", [False, True])
def test_helper_threads_give_the_same_answer(monkeypatch, score):
    """With helpers joining at once (not after 32,768 positions) they really search
    beside the caller on its table; the answer (value, moves, line) is the same as with
    one thread and with a table of 1 MiB, and the helpers did search."""
    import ddz.search.solver as S

    monkeypatch.setattr(S, "_HELP_AFTER", 0)
    searched = []
    real_help = S._help
    monkeypatch.setattr(S, "_help", lambda main: searched.append(real_help(main)) or searched[-1])
    rng = np.random.default_rng(2026)
    positions = [_wz(name) for name in ("WZ5", "WZ7", "WZ8")] if not score else []
    while len(positions) < (3 if not score else 2) + 3:
        if not score:
            pos = _random_position(rng, 3, STANDARD, 21)
        else:
            # dealt 8/8/8, the landlord leading: big enough in score mode that the
            # helpers join (a poll comes every 8,192 positions)
            deck = rng.permutation(CARDS)
            pos = Position([np.bincount(deck[k:k + 8], minlength=15) for k in (0, 8, 16)])
            if solve(pos, score=True, threads=1).nodes < 20_000:
                continue
        if not pos.over and sum(pos.cards_left) >= 17:
            positions.append(pos)
    for pos in positions:
        answers = set()
        for kw in ({"threads": 1}, {"threads": 2}, {"threads": 2, "table_mb": 1}, {"table_mb": 1}):
            sol = solve(pos, score=score, all_moves=True, **kw)
            assert sol.exact
            answers.add((sol.win, sol.value, tuple(sol.moves), tuple(sol.pv)))
        assert len(answers) == 1, str(pos)
    if os.cpu_count() > 1:
        assert searched and sum(searched) > 0


# -- score mode by hand (RULES.md §6) ------------------------------------------------------

@pytest.mark.parametrize("hands, kw, value", [
    # the landlord plays out at once and no farmer played: spring, x2
    (["3", "4"], {}, 2),
    (["3", "4"], {"farmers_played": True}, 1),
    # 3 or 4: the farmer bombs out; bomb x2 and anti-spring x2 (the landlord played once)
    (["34", "5555"], {}, -4),
    (["34", "5555"], {"landlord_plays": 1}, -2),
    (["34", "5555"], {"landlord_plays": 1, "base": 3, "multiplier": 2}, -12),
    # the rocket first (x2), then the 3 (spring, x2)
    (["BR3", "4"], {}, 4),
    # three seats: spring
    (["3", "4", "5"], {}, 2),
    # a farmer leads and plays out; the landlord never played: no anti-spring
    (["33", "4", "5"], {"to_move": 1}, -1),
])
def test_score_mode_hand_checked(hands, kw, value):
    pos = Position(hands, **kw)
    sol = solve(pos, score=True)
    assert sol.exact and sol.value == value
    assert sol.landlord_wins is (value > 0)
    if len(hands) == 3:
        assert sol.scores == (2 * value, -value, -value)
    else:
        assert sol.scores == (value, -value)


def test_win_mode_has_no_value():
    sol = solve(Position(["3", "4"]))
    assert sol.value is None and sol.scores is None and sol.win is True


# -- banned play types (Rules.banned) ---------------------------------------------------------

def test_banned_play_types_are_respected():
    free = Position(["3334", "55"])
    sol = solve(free)
    assert sol.win is True and solve(free.after(sol.moves[0])).landlord_wins is True
    banned = ddz.Rules(banned={"TRIO_SINGLE", "TRIO"})
    pos = Position(["3334", "55"], rules=banned)
    sol = solve(pos, all_moves=True)
    assert sol.exact and sol.win is False and sol.moves == []
    assert all(m.type not in banned.banned for m in sol.pv)
    assert _reference(pos, False).value == -1


# -- over positions, Position -------------------------------------------------------------------

def test_over_position_is_solved_at_once():
    pos = Position(["3", "4"]).after("3")
    assert pos.over and pos.landlord_wins
    sol = solve(pos, score=True)
    assert sol.exact and sol.landlord_wins and sol.value == 2 and sol.pv == [] and sol.nodes == 0


@pytest.mark.parametrize("text", [
    "3455KK/345522",
    "3455KK/345522/3 landlord=1 to_move=2 to_beat=44 last=1 base=3 multiplier=2 landlord_plays=1 farmers_played=1",
    "3334/55 kickers=repeat banned=TRIO,TRIO_SINGLE",
    "-/4 to_move=1 to_beat=3 last=0",
])
def test_position_text_round_trip(text):
    pos = Position.parse(text)
    assert str(pos) == text
    assert Position.parse(str(pos)) == pos and hash(Position.parse(text)) == hash(pos)


@pytest.mark.parametrize("args, kw, error, words", [
    (["3"], {}, DdzError, "two or three"),
    (["3", "4", "5", "6"], {}, DdzError, "two or three"),
    (["3333", "3"], {}, ImpossibleHandError, "copies of '3'"),
    (["333", "4"], {"to_beat": "33", "last_player": 1, "to_move": 0}, ImpossibleHandError, "play to beat"),
    (["3", "4"], {"to_beat": "5"}, DdzError, "last_player"),
    (["3", "4"], {"last_player": 1}, DdzError, "without to_beat"),
    (["3", "4"], {"to_beat": "5", "last_player": 0, "to_move": 0}, DdzError, "seat to move"),
    (["3", "4"], {"to_beat": "34", "last_player": 1}, InvalidPlayError, "not a play"),
    (["3", "4"], {"landlord": 2}, DdzError, "landlord"),
    (["3", "4"], {"to_move": -1}, DdzError, "to_move"),
    (["3", "4"], {"base": 0}, DdzError, "base"),
    (["3", "4"], {"multiplier": 1.5}, DdzError, "multiplier"),
    (["3", "4"], {"farmers_played": 1}, DdzError, "farmers_played"),
    (["", ""], {}, DdzError, "no cards"),
    (["X", "4"], {}, ddz.NotationError, "X"),
    (["3" * 21, "4"], {}, ImpossibleHandError, "copies"),
    (["3", [1] * 14], {}, HandError, "shape"),
    ("34", {}, DdzError, "list"),
])
def test_position_validation(args, kw, error, words):
    with pytest.raises(error, match=words):
        Position(args, **kw)


@pytest.mark.parametrize("text, words", [
    ("", "empty"), ("3/4 color=red", "unknown"), ("3/4 base", "key=value"),
    ("3/4 base=x", "integer"), ("3/4 base=2 base=3", "twice"), ("3/4 farmers_played=yes", "0 or 1"),
])
def test_position_parse_errors(text, words):
    with pytest.raises(DdzError, match=words):
        Position.parse(text)


def test_after_follows_the_trick_rules():
    pos = Position(["34", "5", "6"])                     # three seats, the landlord (0) leads
    a = pos.after("3")
    assert (a.to_move, str(a.to_beat), a.last_player, a.landlord_plays) == (1, "3", 0, 1)
    b = a.after("pass")
    assert (b.to_move, str(b.to_beat)) == (2, "3")     # one pass: the trick goes on
    c = b.after("pass")
    assert (c.to_move, c.to_beat, c.last_player) == (0, None, None)   # two passes: 0 leads
    with pytest.raises(IllegalActionError):
        c.after("pass")
    with pytest.raises(IllegalActionError):
        a.after("4")                                     # not in seat 1's hand
    two = Position(["34", "5"]).after("3").after("pass")
    assert (two.to_move, two.to_beat) == (0, None)       # two seats: one pass ends it
    assert Position(["4444", "5"]).after("4444").multiplier == 2


def test_position_from_game():
    game = ddz.Game(seed=5)
    bots = [ddz.GreedyBot()] * 3
    while game.phase != "playing":
        game.step(bots[game.current_player].act(game.observation(game.current_player), game.legal_actions()))
    for _ in range(7):
        game.step(bots[game.current_player].act(game.observation(game.current_player), game.legal_actions()))
    pos = Position.from_game(game)
    assert game.position() == pos
    assert pos.hands == tuple(game.hand(s) for s in range(3))
    assert (pos.landlord, pos.to_move, pos.to_beat, pos.base) == \
           (game.landlord, game.current_player, game.to_beat, game.bid)
    assert pos.multiplier == game.multiplier
    lord_plays = sum(1 for s, p in game.plays if p and s == game.landlord)
    assert pos.landlord_plays == lord_plays
    if game.to_beat is not None:
        assert pos.last_player == next(s for s, p in reversed(game.plays) if p)
    with pytest.raises(DdzError, match="play phase"):
        Position.from_game(ddz.Game(seed=1))
    with pytest.raises(DdzError, match="play phase"):
        ddz.Game(seed=1).position()


@pytest.mark.parametrize("kw, words", [
    ({"node_limit": 0}, "node_limit"), ({"node_limit": 1.5}, "node_limit"), ({"time_limit": -1}, "time_limit"),
    ({"threads": -1}, "threads"), ({"threads": True}, "threads"), ({"table_mb": 0.5}, "table_mb"),
    ({"score": 1}, "score"), ({"progress": 3}, "progress"),
])
def test_solve_argument_errors(kw, words):
    with pytest.raises(DdzError, match=words):
        solve(Position(["3", "4"]), **kw)
    with pytest.raises(DdzError, match="Position"):
        solve("3/4")


def test_huge_limits_are_no_limits():
    """node_limit >= NO_NODE_LIMIT (2**62) and time_limit >= NO_TIME_LIMIT (1e9 s), inf
    and 10**400 included, mean no limit (they overflowed before)."""
    from ddz.search.solver import NO_NODE_LIMIT, NO_TIME_LIMIT
    pos = Position(["KK5543", "225543"])
    want = solve(pos)
    for kw in ({"node_limit": 2 ** 63}, {"node_limit": NO_NODE_LIMIT}, {"node_limit": 10 ** 400},
               {"time_limit": 10 ** 400}, {"time_limit": float("inf")}, {"time_limit": NO_TIME_LIMIT}):
        sol = solve(pos, **kw)
        assert sol.exact and (sol.win, sol.moves, sol.pv) == (want.win, want.moves, want.pv), kw
    for kw in ({"time_limit": float("nan")}, {"node_limit": -(2 ** 70)}, {"time_limit": "1"}):
        with pytest.raises(DdzError, match=next(iter(kw))):
            solve(pos, **kw)


@pytest.mark.parametrize("plays, ok", [(0, True), (20, True), (21, False), (2 ** 70, False), (-1, False)])
def test_landlord_plays_is_bounded(plays, ok):
    """A landlord makes at most 20 plays (a card each, from at most 20): more is a
    DdzError, not an overflow in the search."""
    if ok:
        pos = Position(["3", "4"], landlord_plays=plays)
        assert solve(pos, score=True).value == 2      # the landlord plays out: spring
    else:
        with pytest.raises(DdzError, match="landlord_plays must be an integer 0..20"):
            Position(["3", "4"], landlord_plays=plays)


def test_many_threads_are_capped_and_share_one_table():
    """threads=256 uses no more threads than CPUs and one table: the same answer, and
    memory bounded (64 MiB per thread would be 16 GiB)."""
    import resource
    import threading

    pos = Position(["3456789TJQK2", "3456789TJQAA"] if not NO_EXTENSIONS else ["3579JK", "468TQA"])
    want = solve(pos, all_moves=True)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    threads_before = threading.active_count()
    sol = solve(pos, all_moves=True, threads=256)
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert (sol.exact, sol.win, sol.moves, sol.pv) == (want.exact, want.win, want.moves, want.pv)
    assert grown_mib < 1024, grown_mib
    assert threading.active_count() - threads_before <= (os.cpu_count() or 1)


def test_progress_callback_runs_the_search_aside():
    calls = []
    sol = solve(_wz("WZ2"), progress=lambda nodes, seconds: calls.append((nodes, seconds)))
    assert sol.exact and sol.win is True
    assert all(n >= 0 and s >= 0 for n, s in calls)


# a full deal (17/17/20, the landlord in seat 2): far too big to solve in a test
HARD = ["3445567789TTTJQ2R", "3345788999JKKAAA2", "34566678TJJQQQKKA22B"]


def test_interrupt_in_progress_stops_the_search():
    """A KeyboardInterrupt raised while the search runs (here by the progress callback, as
    Ctrl-C would be) stops the search and propagates with the positions searched."""
    calls = []

    def progress(nodes, seconds):
        calls.append(nodes)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as info:
        solve(Position(HARD, landlord=2), time_limit=600, table_mb=1, progress=progress)
    assert len(calls) == 1 and info.value.nodes >= calls[0] > 0


@pytest.mark.parametrize("threads", [1, 2])
def test_cancel_from_another_thread_stops_the_search(threads):
    """``cancel``: a threading.Event set from another thread stops a running search (here
    the solve runs in a worker thread, as in a server, and the main thread cancels it),
    which returns an honest not-exact Solution; a handle already set returns at once."""
    import threading

    event = threading.Event()
    out = {}
    calls = []

    def run():
        out["sol"] = solve(Position(HARD, landlord=2), time_limit=600, table_mb=1, threads=threads,
                           cancel=event, progress=lambda n, s: calls.append(n))

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(0.5)
    assert worker.is_alive()                      # still searching: a whole deal
    event.set()
    worker.join(30)
    assert not worker.is_alive()
    sol = out["sol"]
    assert not sol.exact and sol.nodes > 0
    assert sol.win is None and sol.landlord_wins is None and sol.value is None
    assert sol.moves == [] and sol.pv == []
    early = solve(_wz("WZ1"), cancel=event)
    assert not early.exact and early.nodes == 0 and early.moves == []
    # a handle that is never set changes nothing
    assert solve(_wz("WZ1"), cancel=threading.Event()).win is True


def test_cancel_argument_is_checked():
    with pytest.raises(DdzError, match="is_set"):
        solve(Position(["3", "4"]), cancel=True)


def test_reference_tick_reports_and_cancels():
    from ddz.search.reference_solver import TICK_EVERY, LimitReached
    seen = []

    def tick(nodes):
        seen.append(nodes)
        if len(seen) == 3:
            raise LimitReached

    with pytest.raises(LimitReached):
        ref_solve(Position(HARD, landlord=2).hands, 2, 2, None, None, STANDARD, tick=tick)
    assert seen == [TICK_EVERY, 2 * TICK_EVERY, 3 * TICK_EVERY]


def test_table_too_big_is_a_clear_error():
    with pytest.raises(DdzError, match=r"table_mb must be a number of MiB from 1 to 1048576"):
        solve(Position(["3", "4"]), table_mb=10 ** 9)
    if not NO_EXTENSIONS:                     # the compiled search allocates its table
        with pytest.raises(ddz.TableMemoryError, match="choose a smaller table_mb") as info:
            solve(Position(["KK5543", "225543"]), table_mb=1 << 20)      # 1 TiB
        assert isinstance(info.value, MemoryError)
    # a table of 256 MiB or more is zeroed lazily by the kernel: same answers
    pos = Position(["KK5543", "225543"])
    big, small = solve(pos, table_mb=300, all_moves=True), solve(pos, all_moves=True)
    assert (big.exact, big.win, big.moves) == (small.exact, small.win, small.moves) == (True, True, small.moves)
    assert big.moves


# -- the command line and the solver bot ----------------------------------------------------------

def test_cli_solve(run_cli):
    code, out, _ = run_cli("solve", "KK5543", "225543")
    assert code == 0 and "seat 0 (the landlord) to move wins" in out and "best move:" in out
    code, out, _ = run_cli("solve", "34", "5555", "--score", "--all", "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == -4 and data["moves"] == ["3", "4"] and data["exact"]
    code, out, _ = run_cli("solve", "3", "4", "5", "--to-move", "1", "--to-beat", "33", "--last", "0")
    assert code == 0 and "seat 1 (a farmer) to move loses; the landlord wins" in out
    code, _, err = run_cli("solve", "3")
    assert code == 2 and "two or three" in err
    code, out, _ = run_cli("solve", "34", "5", "--to-beat", "33")
    assert code == 2


def test_solver_bot_plays_legal_hands():
    from ddz.search.bots import GreedyBot, SolverBot, play_hand
    # pure Python: solve only the last few cards (the reference minimax is slow)
    threshold = 9 if NO_EXTENSIONS else 20
    for seed in range(3):
        bots = [SolverBot(threshold=threshold, seed=seed, samples=3), GreedyBot(), GreedyBot()]
        game = play_hand(ddz.Game(seed=seed), bots)
        assert game.phase == "over" and game.result is not None
    with pytest.raises(DdzError, match="samples"):
        SolverBot(samples=0)
    with pytest.raises(DdzError, match="samples must be at most 10,000, got 1000000000"):
        SolverBot(samples=10**9)        # a solve per sample on every turn: it would never answer
    with pytest.raises(DdzError, match=r"sequence of 3 bots, not a string: 'greedy' \(make_bot"):
        play_hand(ddz.Game(seed=1), "greedy")


@pytest.mark.parametrize("score", [False, True])
def test_solve_batch_equals_solve_one_by_one(score):
    """``solve_batch`` gives each position the answer ``solve`` gives it (a position that
    is over included), in order; ``pv_plies`` cuts the line and keeps the reported move;
    ``search_seconds`` is the search's share of the call."""
    rng = np.random.default_rng(4105 + score)
    positions = [_random_position(rng, 2 + i % 2, RULESETS[i % 2], 8 if NO_EXTENSIONS else 12)
                 for i in range(8 if NO_EXTENSIONS else 40)]
    positions.append(Position(["33", "4"]).after(ddz.Play.parse("33")))
    batch = ddz.solve_batch(positions, score=score, all_moves=True)
    assert len(batch) == len(positions)
    for pos, got in zip(positions, batch):
        want = solve(pos, score=score, all_moves=True)
        assert (got.exact, got.landlord_wins, got.win, got.moves, got.pv, got.value, got.seats, got.landlord) == \
            (want.exact, want.landlord_wins, want.win, want.moves, want.pv, want.value, want.seats,
             want.landlord), str(pos)
        assert 0 <= got.search_seconds <= got.seconds
        for plies in (0, 1, 3):
            short = solve(pos, score=score, pv_plies=plies)
            assert short.pv == want.pv[:plies] and short.moves == want.moves[:1] if (score or want.win) else \
                short.pv == want.pv[:plies] and short.moves == [], (str(pos), plies)
    short = ddz.solve_batch(positions[:5], score=score, pv_plies=1)
    assert [s.pv for s in short] == [s.pv[:1] for s in batch[:5]]


@pytest.mark.parametrize("args, kw, words", [
    (("KK5543/225543",), {}, "sequence of ddz.Position"),
    ([[Position(["3", "4"]), "3/4"]], {}, "positions[1]"),
    ([[Position(["3", "4"])]], {"pv_plies": -1}, "pv_plies"),
    ([[Position(["3", "4"])]], {"score": 1}, "score"),
    ([[Position(["3", "4"])]], {"node_limit": 0}, "node_limit"),
])
def test_solve_batch_argument_errors(args, kw, words):
    with pytest.raises(DdzError, match=words.replace("[", r"\[").replace("]", r"\]")):
        ddz.solve_batch(*args, **kw)
    if "pv_plies" in kw:
        with pytest.raises(DdzError, match="pv_plies"):
            solve(Position(["3", "4"]), pv_plies=True)
