"""ddz.analyze_deal (a deal's open-card value table) and ddz.lost_at (where a played hand
was lost), issue 41 item 4: checked against ddz.solve of the same positions. Limits are
node counts, so every answer is deterministic."""

import json

import numpy as np
import pytest

import ddz
from ddz.game.deal import bottom_bonus_factor
from ddz.search.bots import GreedyBot, RandomBot, play_hand
from ddz.core.implementation import NO_EXTENSIONS

#: whole deals are past the pure-Python solver's size (``PURE_PYTHON_MAX_CARDS``): it answers
#: "unknown" there by design, so these tests need the compiled solver
needs_core = pytest.mark.skipif(NO_EXTENSIONS, reason="DDZ_NO_EXTENSIONS=1: whole deals need the compiled solver")

#: seat 0's 17 cards and the bottom make the landlord's 20 one play (an airplane with five
#: single wings): it wins at once, with a spring; seat 2 holds four bombs and the rocket
ONE_PLAY = ("33344455566677789", "34567888999TTTJJJ", "QQQKKKKAAAA2222BR", "TJQ")
#: seat 0 with the bottom: the top single joker, the top bombs, a 12-card straight possible
STRONG = ("B2222AAAKKKK34567", "33444555666777888", "39999TTTTJJJJQQQQ", "8AR")


def _position(deal, seat, multiplier=1):
    d = ddz.Deal.parse(deal)
    hands = [list(h) for h in d.hands]
    hands[seat] = [a + b for a, b in zip(hands[seat], d.bottom)]
    return ddz.Position(hands, landlord=seat, multiplier=multiplier)


def _same(row, sol, all_moves=False):
    assert row.exact == sol.exact
    assert row.landlord_wins == sol.landlord_wins
    assert row.move == (str(sol.moves[0]) if sol.moves else None)
    assert row.value == sol.value
    assert row.nodes == sol.nodes
    if all_moves:
        assert list(row.moves) == [str(m) for m in sol.moves]


@needs_core
def test_one_play_landlord_wins_and_rows_match_solve():
    result = ddz.analyze_deal(ONE_PLAY, node_limit=50_000, time_limit=None)
    assert [r.seat for r in result.rows] == [0, 1, 2]
    first = result.rows[0]
    assert first.exact and first.landlord_wins is True and first.move == "333444555666777+89TJQ"
    assert first.position == str(_position(ONE_PLAY, 0))
    for seat, row in enumerate(result.rows):
        _same(row, ddz.solve(_position(ONE_PLAY, seat), node_limit=50_000, pv_plies=0))


def test_seed_deal_row_by_row_against_solve():
    result = ddz.analyze_deal(7, node_limit=30_000, time_limit=None)
    assert result.seed == 7 and result.deal == ddz.Game(seed=7).deal
    for seat, row in enumerate(result.rows):
        pos = _position(result.deal, seat)
        assert row.position == str(pos)
        _same(row, ddz.solve(pos, node_limit=30_000, pv_plies=0))
        if not row.exact:     # unknown is never a guess
            assert row.landlord_wins is None and row.move is None and row.value is None


def test_deal_forms_agree():
    d = ddz.Game(seed=3).deal
    rows = [ddz.analyze_deal(x, node_limit=2_000, time_limit=None).rows
            for x in (3, d, d.to_json(), tuple(d.to_json()["hands"]) + (d.to_json()["bottom"],), ddz.Game(seed=3))]
    for r in rows[1:]:
        assert [(x.landlord_wins, x.move, x.nodes, x.position) for x in r] == \
               [(x.landlord_wins, x.move, x.nodes, x.position) for x in rows[0]]


@needs_core
def test_score_mode_values():
    result = ddz.analyze_deal(ONE_PLAY, score=True, node_limit=1_000_000, time_limit=None)
    assert result.base == 1 and result.multiplier == 1
    lord0, _, lord2 = result.rows
    assert (lord0.landlord_wins, lord0.value, lord0.move) == (True, 2, "333444555666777+89TJQ")   # spring
    assert lord2.exact and lord2.value == 2 * 2 ** 5     # spring, four bombs and the rocket
    _same(lord2, ddz.solve(_position(ONE_PLAY, 2), score=True, node_limit=1_000_000, pv_plies=0))


def _suited(deal):
    """The deal in suited notation (suits S, H, C, D in order of appearance)."""
    used = {}
    parts = []
    for part in deal:
        cards = []
        for ch in part:
            k = used.get(ch, 0)
            used[ch] = k + 1
            cards.append(ch if ch in "BR" else ch + "SHCD"[k])
        parts.append(" ".join(cards))
    return tuple(parts)


@needs_core
def test_score_mode_bottom_bonus_multiplies():
    rules = ddz.Rules(bottom_bonus=True)
    deal = _suited(ONE_PLAY)
    factor = bottom_bonus_factor(ddz.Deal.parse(deal, rules))
    assert factor > 1
    result = ddz.analyze_deal(deal, rules, score=True, node_limit=100_000, time_limit=None)
    assert result.multiplier == factor and result.rows[0].value == 2 * factor
    with pytest.raises(ddz.DealError, match="suits"):
        ddz.analyze_deal(ONE_PLAY, rules, score=True, node_limit=10)


@needs_core
def test_all_moves_exact_and_partial():
    exact = ddz.analyze_deal(ONE_PLAY, all_moves=True, node_limit=50_000, time_limit=None).rows[0]
    assert exact.moves == ("333444555666777+89TJQ",) and not exact.partial
    row = ddz.analyze_deal(STRONG, all_moves=True, node_limit=100_000, time_limit=None).rows[0]
    assert row.exact and row.landlord_wins and row.moves and row.move == row.moves[0]
    pos = _position(STRONG, 0)
    legal = [str(m) for m in pos.legal_moves()]
    assert [m for m in legal if m in row.moves] == list(row.moves)      # move order
    for text in row.moves[:5]:
        play = ddz.Play.parse(text)
        assert ddz.solve(pos.after(play), node_limit=2_000_000).landlord_wins is True
    assert row.partial is True      # the budget stopped before every lead was decided


def test_to_dict_is_json():
    result = ddz.analyze_deal(ONE_PLAY, node_limit=1_000, time_limit=None)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["seed"] is None and data["base"] == 1 and data["rules"] == {}
    assert [r["seat"] for r in data["rows"]] == [0, 1, 2]
    assert set(data["rows"][0]) == {"seat", "landlord_wins", "move", "moves", "partial", "value", "nodes",
                                    "seconds", "exact", "position"}


@pytest.mark.parametrize("args, kwargs, match", [
    ((3.5,), {}, "a deal is"),
    (("33/44",), {}, "not the string"),
    ((True,), {}, "a deal is"),
    ((-1,), {}, "seed"),
    ((ONE_PLAY[:3],), {}, "a deal is"),
    ((ONE_PLAY, "standard"), {}, "rules must be a ddz.Rules"),
    ((ONE_PLAY, ddz.Rules.four_player()), {}, "three-player, one-deck game only"),
    ((ONE_PLAY,), {"score": 1}, "score must be True or False"),
    ((ONE_PLAY,), {"time_limit": 0}, "time_limit must be a positive"),
    ((ONE_PLAY,), {"node_limit": 1.5}, "node_limit must be a positive integer"),
    ((ONE_PLAY, ddz.Rules(doubling_bombs="beating")), {"score": True}, "doubling_bombs='all'"),
    (({"format": "ddz-record"},), {}, "lost_at"),
])
def test_bad_input(args, kwargs, match):
    with pytest.raises(ddz.DdzError, match=match):
        ddz.analyze_deal(*args, **kwargs)


def test_a_game_past_bidding_is_refused():
    game = ddz.Game(seed=1, first_bidder=0)
    game.step(3)
    with pytest.raises(ddz.DdzError, match="before bidding"):
        ddz.analyze_deal(game)
    with pytest.raises(ddz.DdzError, match="not the rules given"):
        ddz.analyze_deal(ddz.Game(seed=1), ddz.REPEAT_KICKERS)


# -- lost_at ---------------------------------------------------------------------------------

def _rigged_record(seed):
    """STRONG dealt, seat 0 bids 3 and plays at random, the farmers greedily."""
    game = ddz.Game(deal=STRONG, first_bidder=0)
    game.step(3)
    play_hand(game, [RandomBot(seed=seed), GreedyBot(), GreedyBot()])
    return game.to_record()


def _positions(record):
    game = ddz.Game.from_record(record)
    start = ddz.Game.from_record(dict(record, actions=record["actions"][:1], result=None))
    out = [ddz.Position.from_game(start)]
    for _, play in game.plays:
        out.append(out[-1].after(play))
    return out


@needs_core
def test_lost_at_the_first_change_checked_on_both_sides():
    record = _rigged_record(0)
    result = ddz.lost_at(record, time_limit=None, budget=None, node_limit=200_000)
    assert result.landlord == 0 and result.start is True and not result.unknown
    k = result.first_change
    assert k is not None and result.changes[0] == k and result.first_span() == (k, k)
    positions = _positions(record)
    before = ddz.solve(positions[k - 1], node_limit=5_000_000)
    after = ddz.solve(positions[k], node_limit=5_000_000)
    assert before.exact and after.exact and before.landlord_wins != after.landlord_wins
    assert before.landlord_wins is True                   # the landlord held it and lost it
    assert result.moves[k].seat == 0
    assert f"won for the landlord by best play; the landlord lost it at move {k}" in result.summary()
    assert result.landlord_won == (record["result"]["winner"] == "landlord")


def test_lost_at_every_known_position_is_right():
    record = _rigged_record(2)
    result = ddz.lost_at(record, time_limit=None, budget=None, node_limit=200_000)
    positions = _positions(record)
    assert len(result.moves) == len(positions)
    for row, pos in zip(result.moves, positions):
        if row.landlord_wins is None:
            continue
        sol = ddz.solve(pos, node_limit=5_000_000)
        if sol.exact:
            assert sol.landlord_wins == row.landlord_wins, (row, str(pos))
    assert result.moves[-1].how == "over"


def test_lost_at_unknown_is_no_claim():
    record = _rigged_record(0)
    result = ddz.lost_at(record, time_limit=None, budget=None, node_limit=1)
    assert result.unknown and result.first_change is None
    assert all(m.how in ("over", "move played", "solved", "unknown") for m in result.moves)
    assert "no claim" in result.summary()
    spent = ddz.lost_at(record, budget=1e-9)
    assert any(m.how == "budget" for m in spent.moves) and spent.first_change is None
    data = json.loads(json.dumps(result.to_dict()))
    assert data["unknown"] == list(result.unknown) and len(data["moves"]) == len(result.moves)


def test_lost_at_takes_a_game():
    game = ddz.Game.from_record(_rigged_record(0))
    a = ddz.lost_at(game, time_limit=None, budget=None, node_limit=200_000)
    b = ddz.lost_at(game.to_record(), time_limit=None, budget=None, node_limit=200_000)
    assert a.first_change == b.first_change and [m.landlord_wins for m in a.moves] == \
           [m.landlord_wins for m in b.moves]


def test_lost_at_bad_input():
    with pytest.raises(ddz.DdzError, match="hand record"):
        ddz.lost_at("record")
    with pytest.raises(ddz.DdzError, match="match record"):
        ddz.lost_at({"format": "ddz-match", "games": []})
    with pytest.raises(ddz.RecordError):
        ddz.lost_at({"format": "ddz-record", "version": 5})
    void = ddz.Game(seed=1, rules=ddz.Rules(all_pass="void"))
    while void.phase == "bidding":
        void.step("pass")
    with pytest.raises(ddz.DdzError, match="no play phase"):
        ddz.lost_at(void.to_record())
    four = ddz.Game(ddz.Rules.four_player(), seed=1)
    with pytest.raises(ddz.DdzError, match="three-player"):
        ddz.lost_at(four.to_record())
    with pytest.raises(ddz.DdzError, match="budget"):
        ddz.lost_at(_rigged_record(0), budget=-1)


def test_lost_at_cancel():
    import threading
    stop = threading.Event()
    stop.set()
    result = ddz.lost_at(_rigged_record(0), cancel=stop)
    assert result.moves[-1].how == "over"
    assert {m.how for m in result.moves[:-1]} <= {"cancelled", "move played"} and result.unknown
    with pytest.raises(ddz.DdzError, match="cancel must be"):
        ddz.lost_at(_rigged_record(0), cancel=True)


@needs_core
def test_lost_at_second_pass_spends_the_rest_of_the_budget():
    record = _rigged_record(2)
    full = ddz.lost_at(record, time_limit=None, budget=None)
    assert not full.unknown
    tiny = ddz.lost_at(record, time_limit=1e-9, budget=None)       # one pass: the limit stops every search
    assert tiny.unknown
    endless = ddz.lost_at(record, time_limit=np.float32(1e-9), budget=float("inf"))    # inf is None: one pass
    assert [m.landlord_wins for m in endless.moves] == [m.landlord_wins for m in tiny.moves]
    rest = ddz.lost_at(record, time_limit=1e-9, budget=60)         # then the budget's rest, latest first
    assert [m.landlord_wins for m in rest.moves] == [m.landlord_wins for m in full.moves]
    assert rest.first_change == full.first_change and rest.summary() == full.summary()
