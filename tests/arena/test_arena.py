"""The arena (issue 27): duplicate matches, statistics, records, workers, the DouZero deal
mapping replayed in DouZero's own GameEnv, and the command."""

import dataclasses
import json
import math

import pytest

import ddz
import ddz.arena
from ddz import Game, Rules, interop
from ddz.arena import Sprt, mean_ci, run
from ddz.cli import main

DOUZERO = Rules.profile("douzero")


def _same(a, b):
    """Two results equal but for their timings."""
    return a.numbers() == b.numbers() and "seconds" not in a.numbers()


def test_douzero_mode_duplicate_tables_and_intervals():
    r = run(["greedy", "random"], deals=60, seed=5)
    assert r.mode == "douzero" and r.deals == 60 and r.hands == 120
    g, rnd = r.bots
    assert g["name"] == "greedy" and rnd["name"] == "random"
    # duplicate scoring: one side wins each table, so the WPs add up to one, ADPs to zero
    assert g["wp"] + rnd["wp"] == pytest.approx(1.0) and g["adp"] == pytest.approx(-rnd["adp"])
    assert g["wp_ci"][0] < g["wp"] < g["wp_ci"][1] and g["wp"] > 0.7
    for role in ("landlord", "farmer"):
        assert g["roles"][role]["deals"] == 60 and 0 <= g["roles"][role]["wp"] <= 1
    # WP is the mean of the two roles' win rates (one table of each per deal)
    assert g["wp"] == pytest.approx((g["roles"]["landlord"]["wp"] + g["roles"]["farmer"]["wp"]) / 2)
    assert r.pairs[0]["bots"] == ["greedy", "random"] and r.wp_matrix[0][1] == pytest.approx(g["wp"])
    assert "greedy" in str(r) and "hands per second" in str(r)


def test_a_bot_against_itself_and_the_same_pair_in_a_bigger_run():
    r = run(["random", "random"], deals=150, seed=2)
    a, b = r.bots
    assert (a["name"], b["name"]) == ("random", "random#2")
    assert a["wp_ci"][0] < 0.5 < a["wp_ci"][1]
    # the tables' seeds depend on (seed, deal, table) only: greedy vs random plays the same
    # hands whatever else is in the run
    two = run(["greedy", "random"], deals=10, seed=4)
    three = run(["greedy", "random", "greedy"], deals=10, seed=4)
    assert three.pairs[0]["wp"] == two.pairs[0]["wp"] and three.pairs[0]["adp"] == two.pairs[0]["adp"]
    assert len(three.wp_matrix) == 3 and three.wp_matrix[0][0] is None
    assert three.wp_matrix[0][2] == pytest.approx(0.5)


def test_game_mode_plays_every_rotation():
    r = run(["greedy", "random"], deals=8, seed=1, mode="game")
    assert r.hands == 8 * 6 and r.mode == "game"
    assert r.bots[0]["adp"] > r.bots[1]["adp"]
    same = run(["greedy", "greedy"], deals=5, seed=1, mode="game")
    assert same.pairs[0]["diff"] == 0 and same.bots[0]["wp"] == pytest.approx(0.5)
    four = run(["greedy", "random"], deals=2, seed=1, mode="game", rules=Rules.four_player())
    assert four.hands == 2 * 8
    with pytest.raises(ddz.DdzError, match="three players"):
        run(["greedy", "random"], deals=2, rules=Rules.four_player())


def test_workers_give_identical_numbers():
    one = run(["greedy", "random"], deals=40, seed=9)
    two = run(["greedy", "random"], deals=40, seed=9, workers=2)
    assert two.workers == 2 and _same(one, two)


def test_records_replay(tmp_path):
    path = tmp_path / "hands.jsonl"
    r = run(["greedy", "random"], deals=5, seed=3, out=str(path))
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert len(lines) == r.hands == 10
    for k, rec in enumerate(lines):
        game = Game.from_record(rec)
        arena = rec["meta"]["arena"]
        assert (arena["deal"], arena["table"]) == (k // 2, k % 2)
        assert game.result.winner == ("landlord" if arena["won"][game.landlord] else "farmers")
        assert arena["bots"][game.landlord] == ("greedy" if arena["table"] == 0 else "random")
    assert main(["replay", str(path)]) == 0


def test_sprt_stops_once_decided():
    r = run(["greedy", "random"], deals=500, seed=1, sprt="0,50")
    assert r.sprt["decision"] == "H1" and 30 <= r.deals < 100 and r.sprt["samples"] == r.deals
    assert r.deals == run(["greedy", "random"], deals=500, seed=1, sprt=Sprt(0, 50), workers=2).deals
    s = Sprt.parse("elo0=0 elo1=5 alpha=0.1")
    assert (s.elo0, s.elo1, s.alpha, s.beta) == (0, 5, 0.1, 0.05)
    assert s.state([0.5] * 10).decision is None
    big = Sprt(0, 100)
    assert big.state([1.0] * 29).decision is None and big.state([1.0] * 30).decision == "H1"     # min_deals
    for bad in ("5,0", "x", "0", "0,5,2"):
        with pytest.raises(ddz.DdzError):
            Sprt.parse(bad)
    with pytest.raises(ddz.DdzError, match="two bots"):
        run(["greedy", "random", "random"], deals=5, sprt="0,5")


def test_mean_ci():
    m, lo, hi = mean_ci([0, 1] * 50)
    assert m == 0.5 and hi - m == pytest.approx(1.959964 * math.sqrt(0.25 * 100 / 99 / 100)) == m - lo
    assert mean_ci([3.0]) == (3.0, -math.inf, math.inf)     # one value: nothing known of the spread
    with pytest.raises(ddz.DdzError):
        mean_ci([])


@pytest.mark.parametrize("kwargs, match", [
    ({"bots": ["greedy"]}, "two or more bots"),
    ({"bots": ["greedy", "nobody"]}, "unknown bot"),
    ({"bots": ["greedy", "no_such_module:Bot"]}, "cannot import"),
    ({"bots": ["greedy", "ddz:NoSuchBot"]}, "has no"),
    ({"bots": ["greedy", "cmd:"]}, "needs a program"),
    ({"bots": ["greedy", "random"], "deals": 0}, "deals"),
    ({"bots": ["greedy", "random"], "seed": -1}, "seed"),
    ({"bots": ["greedy", "random"], "mode": "chess"}, "mode"),
    ({"bots": ["greedy", "random"], "workers": -1}, "workers"),
    ({"bots": ["greedy", "random"], "rules": Rules(doubling=True)}, "douzero mode"),
    ({"bots": ["greedy", "random"], "rules": "standard"}, "rules"),
    ({"bots": ["greedy", "random"], "sprt": 3}, "sprt"),
    ({"bots": ["greedy", "random"], "move_seconds": -1}, "move_seconds"),
])
def test_bad_arguments(kwargs, match):
    kwargs = {"deals": 2, **kwargs}
    with pytest.raises(ddz.DdzError, match=match):
        run(kwargs.pop("bots"), **kwargs)


def test_python_bots_by_module_class_and_object():
    r = run(["ddz:GreedyBot", ddz.RandomBot, ddz.GreedyBot()], deals=3, seed=1)
    assert [b["name"] for b in r.bots] == ["GreedyBot", "RandomBot", "GreedyBot#2"]
    assert r.pairs[1]["wp"] == 0.5          # two greedy bots: the same play at both tables


class _Raises:
    def act(self, obs, legal):
        raise RuntimeError("boom")


def test_a_python_bot_that_raises_forfeits():
    r = run([_Raises, "random"], deals=3, seed=1)
    assert r.bots[0]["forfeits"] == 6 and r.bots[0]["wp"] == 0
    assert r.forfeits[0]["kind"] == "error" and "boom" in r.forfeits[0]["detail"]


class _CtrlC:
    """Greedy, until Ctrl-C arrives at its 100th decision."""
    calls = 0

    def act(self, obs, legal):
        _CtrlC.calls += 1
        if _CtrlC.calls == 100:
            raise KeyboardInterrupt
        return ddz.GreedyBot().act(obs, legal)


def test_ctrl_c_keeps_the_deals_finished(capsys):
    r = run([_CtrlC, "random"], deals=50, seed=1)
    assert r.interrupted and 0 < r.deals < 50 and r.hands == 2 * r.deals and "interrupted" in str(r)
    assert r.bots[0]["forfeits"] == 0


# -- the DouZero deal mapping --------------------------------------------------------------

def _card_play_data(seed):
    g = Game(DOUZERO, seed=seed)
    g.step(3)
    return interop.douzero_card_play_data(g), g


def test_douzero_deal_mapping_round_trip():
    for seed in range(20):
        data, g = _card_play_data(seed)
        assert len(data["landlord"]) == 20 and len(data["landlord_up"]) == 17
        assert all(c in data["landlord"] for c in data["three_landlord_cards"])
        for lord in range(3):
            game = interop.douzero_game(data, lord)
            assert game.phase == "playing" and game.landlord == lord == game.current_player
            assert interop.to_douzero(game.hand(lord)) == data["landlord"]
            assert interop.to_douzero(game.hand((lord + 1) % 3)) == data["landlord_down"]
            assert interop.to_douzero(game.hand((lord + 2) % 3)) == data["landlord_up"]
            assert interop.douzero_card_play_data(game) == data
            assert Game.from_record(game.to_record()).hand(lord) == game.hand(lord)
            for name in interop.DOUZERO_POSITIONS:
                assert interop.douzero_seat(name, lord) == (lord + interop.DOUZERO_POSITIONS.index(name)) % 3
    data, _ = _card_play_data(1)
    bad = dict(data, three_landlord_cards=[30, 30, 30])
    for wrong in ({}, "deal", bad, dict(data, landlord=data["landlord"][:-1] + [99])):
        with pytest.raises(ddz.DealError):
            interop.douzero_game(wrong)
    with pytest.raises(ddz.DdzError):
        interop.douzero_game(data, landlord=3)
    with pytest.raises(ddz.DdzError):
        interop.douzero_card_play_data(Game(DOUZERO, seed=1))
    with pytest.raises(ddz.DdzError):
        interop.douzero_seat("farmer", 0)


class _Replay:
    """A DouZero agent that plays the moves of a record, checking the infoset DouZero
    gives it against ddz's douzero_infoset of the same position."""

    def __init__(self, moves, game, check):
        self.moves, self.game, self.check = moves, game, check

    def act(self, infoset):
        play = self.moves.pop(0)
        if self.check:
            ours = interop.douzero_infoset(self.game)
            for key in ("player_position", "player_hand_cards", "num_cards_left_dict", "three_landlord_cards",
                        "card_play_action_seq", "last_move", "last_two_moves", "last_move_dict", "played_cards",
                        "last_pid", "bomb_num", "all_handcards"):
                assert getattr(ours, key) == getattr(infoset, key), key
            assert sorted(ours.other_hand_cards) == sorted(infoset.other_hand_cards)
            theirs = {tuple(m) for m in infoset.legal_actions}
            mine = {tuple(m) for m in ours.legal_actions}
            # DouZero also lets both jokers be kickers (3333+BR); RULES.md §2.1 does not
            assert mine <= theirs and all(20 in m and 30 in m for m in theirs - mine)
        self.game.step(play)
        return interop.to_douzero(play)


def test_arena_hands_replay_in_douzero_gameenv(tmp_path):
    """200 arena hands played again in DouZero's own GameEnv: the same winner and
    bomb_num, and DouZero's information set equal to ddz's at every step."""
    genv = pytest.importorskip("douzero.env.game")
    path = tmp_path / "hands.jsonl"
    run(["greedy", "douzero-random"], deals=100, seed=11, out=str(path))
    records = [json.loads(x) for x in path.read_text().splitlines()]
    assert len(records) == 200
    bombs_seen = 0
    for k, rec in enumerate(records):
        arena = rec["meta"]["arena"]
        game = Game.from_record(rec)
        data = interop.douzero_card_play_data(game)
        lord = game.landlord
        names = {(lord + i) % 3: n for i, n in enumerate(interop.DOUZERO_POSITIONS)}
        fresh = interop.douzero_game(data, lord)
        plays = {n: [p for s, p in game.plays if names[s] == n] for n in interop.DOUZERO_POSITIONS}
        env = genv.GameEnv({n: _Replay(plays[n], fresh, check=k < 40) for n in interop.DOUZERO_POSITIONS})
        env.card_play_init({key: list(v) for key, v in data.items()})
        while not env.game_over:
            env.step()
        winner = "landlord" if arena["won"][lord] else "farmer"
        assert env.get_winner() == winner and env.get_bomb_num() == arena["bombs"]
        assert env.num_scores[winner] == (2 if winner == "landlord" else 1) * 2 ** arena["bombs"]
        bombs_seen += arena["bombs"] > 0
    assert bombs_seen >= 5


def test_douzero_agents_play_in_both_modes():
    pytest.importorskip("douzero.evaluation.rlcard_agent")
    r = run(["douzero-rlcard", "douzero-random"], deals=20, seed=3)
    assert r.bots[0]["wp"] > 0.6 and r.bots[0]["forfeits"] == 0 == r.bots[1]["forfeits"]
    again = run(["douzero-rlcard", "douzero-random"], deals=20, seed=3)
    assert _same(r, again)                      # random and numpy.random are seeded per table
    g = run(["douzero-rlcard", "greedy"], deals=2, seed=3, mode="game")
    assert g.hands == 12 and g.bots[0]["forfeits"] == 0


# -- the command ----------------------------------------------------------------------------

def test_cli_arena_json(capsys):
    assert main(["arena", "greedy", "random", "--deals", "20", "--seed", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [b["name"] for b in out["bots"]] == ["greedy", "random"]
    for b in out["bots"]:
        for key in ("wp", "wp_ci", "adp", "adp_ci"):
            assert key in b and key in b["roles"]["landlord"] and key in b["roles"]["farmer"]
        assert len(b["wp_ci"]) == 2
    assert out["deals"] == 20 and out["hands"] == 40
    assert main(["arena", "greedy", "random", "--deals", "5", "--mode", "game", "--sprt", "0,10"]) == 0
    assert "SPRT" in capsys.readouterr().out
    # --profile is the starting point in either mode (it was ignored: standard rules were played)
    for mode in ("game", "douzero"):
        assert main(["arena", "greedy", "random", "--deals", "1", "--mode", mode, "--profile", "douzero",
                     "--kickers", "repeat", "--json"]) == 0
        rules = ddz.Rules.from_json(json.loads(capsys.readouterr().out)["rules"])
        assert rules == dataclasses.replace(ddz.Rules.profile("douzero"), kickers="repeat"), mode


@pytest.mark.parametrize("argv", [["arena", "greedy"], ["arena", "greedy", "bogus"],
                                  ["arena", "greedy", "random", "--deals", "0"],
                                  ["arena", "greedy", "random", "--sprt", "1"],
                                  ["arena", "greedy", "random", "--out", ""]])
def test_cli_arena_errors(argv, capsys):
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code
    assert status == 2
    assert "error" in capsys.readouterr().err
