"""Hands that everybody passes end (RULES.md §3, ``Rules.all_pass``/``max_redeals``),
seeds mean one thing, and records say which deal a seed deals (issue 16)."""

import json

import numpy as np
import pytest

import ddz.game
from ddz import DdzError, Game, IllegalActionError, Phase, RecordError, Result, Rules
from ddz.search.bots import RandomBot, play_hand


class AlwaysPass:
    """The bot of the report: ``legal[0]``, which passes every bid."""

    def act(self, observation, legal):
        return legal[0]


def _over_by_timeouts(game, limit=100_000):
    steps = 0
    while game.current_player is not None:
        game.step(game.timeout_action())
        steps += 1
        assert steps < limit, "the table of timeouts did not end"
    return steps


@pytest.mark.parametrize("bidding", ["points", "rob"])
@pytest.mark.parametrize("limit", [0, 1, 10])
def test_always_pass_bots_end_void_after_max_redeals(bidding, limit):
    rules = Rules(bidding=bidding, max_redeals=limit)
    g = play_hand(Game(rules, seed=4), [AlwaysPass()] * 3)
    r = g.result
    assert g.phase is Phase.OVER and g.current_player is None
    assert g.redeals == limit and len(g.deals) == limit + 1
    assert len(g.actions) == 3 * (limit + 1)
    assert r.void and f"max_redeals={limit}" in r.void and (f"{limit + 1} deals" if limit else "1 deal") in r.void
    assert r.landlord is None and r.winner is None and r.winners == ()
    assert r.score == 0 and r.scores == (0, 0, 0) and g.landlord is None


def test_default_is_redeal_ten_times():
    assert Rules().all_pass == "redeal" and Rules().max_redeals == 10
    g = play_hand(Game(seed=1), [AlwaysPass()] * 3)
    assert g.redeals == 10 and g.result.void


@pytest.mark.parametrize("bidding", ["points", "rob"])
def test_void_at_once(bidding):
    g = Game(Rules(bidding=bidding, all_pass="void", max_redeals=7), seed=2)
    steps = _over_by_timeouts(g)
    assert steps == 3 and g.redeals == 0
    assert g.result.void == "everybody passed the auction (Rules.all_pass='void')"
    assert g.result == Result.voided(g.result.void)


@pytest.mark.parametrize("rules", [Rules(), Rules(bidding="rob"), Rules(doubling=True),
                                   Rules(all_pass="void")])
def test_a_table_of_timeouts_ends(rules):
    g = Game(rules, seed=9)
    _over_by_timeouts(g)
    assert g.result.void and g.result.scores == (0, 0, 0)


def test_a_void_hand_accepts_no_action_and_is_observable():
    g = play_hand(Game(Rules(all_pass="void"), seed=3), [AlwaysPass()] * 3)
    assert g.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        g.step(0)
    with pytest.raises(IllegalActionError, match="over"):
        g.timeout_action()
    obs = g.observation(1)
    assert obs.phase is Phase.OVER and obs.landlord is None and obs.current_player is None
    assert g.multiplier == 1
    c = g.clone()
    assert c.result == g.result and c.phase is Phase.OVER


def test_a_redeal_still_happens_below_the_bound():
    g = Game(Rules(max_redeals=2), seed=5)
    for _ in range(3):
        g.step(0)
    assert g.phase is Phase.BIDDING and g.redeals == 1 and g.result is None
    g.step(3)
    assert g.landlord is not None and g.result is None


@pytest.mark.parametrize("kw, match", [
    ({"all_pass": "again"}, "all_pass"), ({"all_pass": None}, "all_pass"),
    ({"max_redeals": -1}, "max_redeals"), ({"max_redeals": 1.0}, "max_redeals"),
    ({"max_redeals": True}, "max_redeals"), ({"max_redeals": "3"}, "max_redeals"),
])
def test_bad_all_pass_options(kw, match):
    with pytest.raises(DdzError, match=match):
        Rules(**kw)


def test_max_redeals_takes_numpy_integers():
    r = Rules(max_redeals=np.int64(3))
    assert r.max_redeals == 3 and type(r.max_redeals) is int and r == Rules(max_redeals=3)


def test_the_options_are_game_options_not_move_options():
    r = Rules(all_pass="void", max_redeals=0)
    assert r.move_rules is Rules().move_rules
    assert {f.name for f in Rules.move_fields()} == {"kickers", "banned", "players", "straights", "wings",
                                                   "four_with_two", "airplane_rank", "beat_reading",
                                                   "chain_from_four", "bomb_on_rocket"}


# -- records ---------------------------------------------------------------------------

def test_void_hand_record_round_trip():
    g = play_hand(Game(Rules(max_redeals=2), seed=11), [AlwaysPass()] * 3)
    rec = json.loads(json.dumps(g.to_record()))
    assert rec["version"] == 5
    assert rec["rules"]["all_pass"] == "redeal" and rec["rules"]["max_redeals"] == 2
    assert rec["result"]["void"] == g.result.void and rec["result"]["scores"] == [0, 0, 0]
    assert len(rec["deals"]) == 3
    again = Game.from_record(rec)
    assert again.result == g.result and again.redeals == 2
    rec["rules"]["max_redeals"] = 3                     # one more redeal: the deals run out
    with pytest.raises(RecordError, match="has only 3 deal"):
        Game.from_record(rec)


def test_played_hand_results_say_void_null():
    g = play_hand(Game(seed=3), [RandomBot(1), RandomBot(2), RandomBot(3)])
    rec = g.to_record()
    assert rec["result"]["void"] is None and g.result.void is None


def _as_version_2(rec):
    rec = json.loads(json.dumps(rec))
    rec["version"] = 2
    for name in ddz.game.records._RULES_ADDED[2]:
        del rec["rules"][name]
    if rec["result"] is not None:
        del rec["result"]["void"], rec["result"]["open_play"]
    return rec


def test_version_2_records_still_replay():
    g = Game(seed=77, _legacy=True)      # dealt as ddz dealt when it wrote version 2
    for _ in range(3):
        g.step(0)
    play_hand(g, [RandomBot(1), RandomBot(2), RandomBot(3)])
    old = _as_version_2(g.to_record())
    again = Game.from_record(old)
    assert again.result == g.result and again.rules == Rules()
    old["rules"]["max_redeals"] = 10
    with pytest.raises(RecordError, match="no field"):
        Game.from_record(old)


def test_wrong_seed_is_a_deal_that_does_not_match():
    g = Game(seed=20)
    g.step(3)
    rec = g.to_record()
    rec["seed"] = 21
    with pytest.raises(RecordError, match="first deal of the record is not what seed 21 deals"):
        Game.from_record(rec)


def test_edited_redeal_is_named():
    g = Game(Rules(max_redeals=3), seed=8)
    for _ in range(6):
        g.step(0)
    rec = g.to_record()
    rec["deals"][2] = rec["deals"][0]
    with pytest.raises(RecordError, match=r"deal 2 \(after 2 redeals\) of the record is not what seed 8"):
        Game.from_record(rec)


# -- seeds -------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [-1, -5, np.int64(-3), -(2 ** 70)])
def test_negative_seeds_are_refused(seed):
    with pytest.raises(DdzError, match=r"a seed is an int 0 \.\. 2\*\*64 - 1"):
        Game(seed=seed)
    with pytest.raises(DdzError, match="seed"):
        RandomBot(seed)


def test_seed_zero_and_the_largest_seeds_deal_and_larger_ones_are_refused():
    top = 2 ** 64 - 1
    assert Game(seed=0).deal != Game(seed=top).deal != Game(seed=top - 1).deal
    assert Game(seed=top).deal == Game(seed=top).deal
    for bad in (2 ** 64, 2 ** 70):
        with pytest.raises(DdzError, match=r"0 \.\. 2\*\*64 - 1.*" + str(bad)):
            Game(seed=bad)


def test_record_with_a_negative_seed_is_rejected():
    rec = Game(seed=5).to_record()
    rec["seed"] = -5
    with pytest.raises(RecordError, match="seed"):
        Game.from_record(rec)


def test_max_redeals_is_bounded():
    """A game of players who always pass ends in bounded time: ``max_redeals`` is at most
    ``MAX_REDEALS``."""
    from ddz.core.rules import MAX_REDEALS
    assert Rules(max_redeals=MAX_REDEALS).max_redeals == MAX_REDEALS
    for bad in [MAX_REDEALS + 1, 10 ** 30, -1]:
        with pytest.raises(DdzError, match="max_redeals must be an int from 0 to"):
            Rules(max_redeals=bad)
